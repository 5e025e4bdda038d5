import {
  ETHNICITIES,
  FILTERS,
  FILTER_STRENGTH,
  GENDERS,
  RETOUCH_LEVELS,
  SCALE_FACTOR,
  STUDIO_FILTER_PROMPT,
  UpscaleInputSchema,
  loraIndexFor,
  type FilterName,
  type UpscaleInputRaw,
} from '@dewy/contracts';

import { DEFAULT_OPTIONS, retouchInputFields, updateOptions, type UpscaleOptions } from '../../../shared/retouch-options';

export { DEFAULT_OPTIONS, updateOptions, type UpscaleOptions } from '../../../shared/retouch-options';

/** Random integer 1..10000 (001 §5 default seed). */
export function randomSeed(): number {
  return 1 + Math.floor(Math.random() * 10_000);
}

/**
 * The request input of 001 §3/§5: the controls' fields (retouchInputFields) with the uploaded image,
 * its size and the seed.
 */
export function buildUpscaleInput(options: UpscaleOptions, image: { imageUrl: string; width: number; height: number }, seed: number): UpscaleInputRaw {
  return { ...retouchInputFields(options), image: image.imageUrl, seed, width: image.width, height: image.height };
}

/**
 * Gender × ethnicity × level for each model index (001 §5), the inverse of loraIndexFor. Index 7
 * (matte makeup) is shared by East Asian and Western women; without a remembered choice it reads as
 * East Asian, the product's default ethnicity.
 */
const LORA_OPTIONS: Record<number, Pick<UpscaleOptions, 'gender' | 'ethnicity' | 'level'>> = {
  0: { gender: 'female', ethnicity: 'east_asian', level: 'makeup' },
  1: { gender: 'female', ethnicity: 'east_asian', level: 'glow' },
  2: { gender: 'female', ethnicity: 'east_asian', level: 'basic' },
  3: { gender: 'female', ethnicity: 'western', level: 'basic' },
  4: { gender: 'female', ethnicity: 'western', level: 'makeup' },
  5: { gender: 'male', ethnicity: 'western', level: 'basic' },
  6: { gender: 'male', ethnicity: 'east_asian', level: 'basic' },
  7: { gender: 'female', ethnicity: 'east_asian', level: 'matte_makeup' },
  8: { gender: 'female', ethnicity: 'east_asian', level: 'basic_chic' },
};

const snap = (value: number, step: number, min: number, max: number) => Number(Math.min(max, Math.max(min, Math.round(value / step) * step)).toFixed(6));

/**
 * The controls of a past job (a history item's `input`, 001 §3): scale, filter, strength and the
 * exclusions come from the input as the server stored it; gender, ethnicity and level come from the
 * options the page remembered for that job when they produce the same model index, otherwise from the
 * model index (see LORA_OPTIONS). Null when the input is not an upscale input.
 * @param remembered the UI options the page sent for this job (rememberJobOptions), if any
 */
export function optionsFromInput(input: unknown, remembered: UpscaleOptions | null = null): UpscaleOptions | null {
  const parsed = UpscaleInputSchema.safeParse(input);
  if (!parsed.success) return null;
  const i = parsed.data;
  const fromRemembered = remembered && loraIndexFor(remembered.gender, remembered.ethnicity, remembered.level) === i.lora_index;
  const who = fromRemembered ? { gender: remembered.gender, ethnicity: remembered.ethnicity, level: remembered.level } : (LORA_OPTIONS[i.lora_index] ?? LORA_OPTIONS[2]!);
  const filter: FilterName = i.filter_index === 1 ? 'ppoyong' : i.filter_prompt === STUDIO_FILTER_PROMPT ? 'studio' : 'none';
  const strength =
    filter === 'none'
      ? (remembered?.strength ?? DEFAULT_OPTIONS.strength)
      : snap(i.filter_strength, FILTER_STRENGTH.step, FILTER_STRENGTH.min, FILTER_STRENGTH.max);
  return updateOptions(DEFAULT_OPTIONS, {
    ...who,
    scale: snap(i.scale_factor, SCALE_FACTOR.step, SCALE_FACTOR.min, SCALE_FACTOR.max),
    filter,
    strength,
    excludeLips: i.upper_lip || i.lower_lip,
    excludeEyebrows: i.left_eyebrow || i.right_eyebrow,
    excludeNose: i.nose,
    excludeHair: i.hair,
  });
}

/** A stored value that is a complete, valid set of options (anything else is ignored). */
export function asUpscaleOptions(value: unknown): UpscaleOptions | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const isIn = <T extends string>(list: readonly T[], x: unknown): x is T => typeof x === 'string' && (list as readonly string[]).includes(x);
  const num = (x: unknown, min: number, max: number) => typeof x === 'number' && Number.isFinite(x) && x >= min && x <= max;
  const bool = (x: unknown) => typeof x === 'boolean';
  if (!isIn(GENDERS, v.gender) || !isIn(ETHNICITIES, v.ethnicity) || !isIn(RETOUCH_LEVELS, v.level) || !isIn(FILTERS, v.filter)) return null;
  if (!num(v.scale, SCALE_FACTOR.min, SCALE_FACTOR.max) || !num(v.strength, FILTER_STRENGTH.min, FILTER_STRENGTH.max)) return null;
  if (![v.excludeLips, v.excludeEyebrows, v.excludeNose, v.excludeHair].every(bool)) return null;
  return {
    gender: v.gender,
    ethnicity: v.ethnicity,
    level: v.level,
    scale: v.scale as number,
    filter: v.filter,
    strength: v.strength as number,
    excludeLips: v.excludeLips as boolean,
    excludeEyebrows: v.excludeEyebrows as boolean,
    excludeNose: v.excludeNose as boolean,
    excludeHair: v.excludeHair as boolean,
  };
}

/**
 * The label of a dewy-skin result (001 §9: "The dewy skin result carries the label 'Fair-skin filter
 * 0.75'"): for a job made with the glow model (lora_index 1) and a colour filter, that filter and its
 * strength as the server stored them; null for any other job, for glow without a filter, and for an
 * input that is not an upscale input.
 */
export function dewySkinLabel(input: unknown): { filter: Exclude<FilterName, 'none'>; strength: number } | null {
  const parsed = UpscaleInputSchema.safeParse(input);
  if (!parsed.success || parsed.data.lora_index !== loraIndexFor('female', 'east_asian', 'glow')) return null;
  const i = parsed.data;
  const filter = i.filter_index === 1 ? 'ppoyong' : i.filter_prompt === STUDIO_FILTER_PROMPT ? 'studio' : null;
  if (!filter || i.filter_strength <= 0.01) return null;
  return { filter, strength: Number(i.filter_strength.toFixed(2)) };
}
