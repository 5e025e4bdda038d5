import { planCredits, type PaidPlan } from '@dewy/contracts';

/** Photos a number of credits retouches, at 100 (large) to 80 (small) credits per photo (000 §9). */
export function approxImages(credits: number): { min: number; max: number } {
  return { min: Math.floor(credits / 100), max: Math.floor(credits / 80) };
}

/** Monthly credits an upgrade from `from` to `to` grants at once (the difference); 0 for a downgrade. */
export function upgradeCreditDifference(from: PaidPlan, to: PaidPlan): number {
  return Math.max(0, planCredits(to) - planCredits(from));
}
