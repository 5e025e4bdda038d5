import type { User } from '@dewy/contracts';
import type { UserRow } from '../../db/schema';
import { isAdmin } from '../../policies';

/** The user as the page sees it (contracts UserSchema): credits = one-time + bonus + subscription. */
export function presentUser(u: UserRow): User {
  const credits = u.oneTimeCredits + u.bonusCredits + u.subscriptionCredits;
  return {
    id: u.id,
    email: u.email,
    nickname: u.nickname,
    plan: u.plan,
    credits,
    balance: credits,
    one_time_credits: u.oneTimeCredits,
    subscription_credits: u.subscriptionCredits,
    bonus_credits: u.bonusCredits,
    credit_debt: u.creditDebt,
    cancelled_at: u.cancelledAt?.toISOString() ?? null,
    subscription_end_date: u.subscriptionEndDate?.toISOString() ?? null,
    next_renewal_date: u.nextRenewalDate?.toISOString() ?? null,
    subscriptionId: u.subscriptionId,
    isAdmin: isAdmin(u),
    email_verified: u.emailVerifiedAt !== null,
  };
}
