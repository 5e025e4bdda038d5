import {
  ETHNICITIES,
  FILTERS,
  FILTER_STRENGTH,
  GENDERS,
  RETOUCH_LEVELS,
  SCALE_FACTOR,
  STUDIO_FILTER_PROMPT,
  UpscaleInputSchema,
  filterFieldsFor,
  loraIndexFor,
  normalizeRetouchLevel,
  type Ethnicity,
  type FilterName,
  type Gender,
  type RetouchLevel,
  type UpscaleInputRaw,
} from '@dewy/contracts';

/** What the workspace's controls hold (001 §2/§5). */
export interface UpscaleOptions {
  gender: Gender;
  ethnicity: Ethnicity;
  level: RetouchLevel;
  scale: number;
  filter: FilterName;
  strength: number;
  excludeLips: boolean;
  excludeEyebrows: boolean;
  excludeNose: boolean;
  excludeHair: boolean;
}

export const DEFAULT_OPTIONS: UpscaleOptions = {
  gender: 'female',
  ethnicity: 'east_asian',
  level: 'basic',
  scale: SCALE_FACTOR.default,
  filter: 'none',
  strength: 0.5,
  excludeLips: false,
  excludeEyebrows: false,
  excludeNose: false,
  excludeHair: false,
};

/** Apply a change; a retouch level not offered for the gender × ethnicity resets to basic. */
export function updateOptions(prev: UpscaleOptions, patch: Partial<UpscaleOptions>): UpscaleOptions {
  const next = { ...prev, ...patch };
  next.level = normalizeRetouchLevel(next.gender, next.ethnicity, next.level);
  return next;
}

/** Random integer 1..10000 (001 §5 default seed). */
export function randomSeed(): number {
  return 1 + Math.floor(Math.random() * 10_000);
}

/**
 * The request input of 001 §3/§5 from the controls and the uploaded image: lips send upper_lip and
 * lower_lip, eyebrows send left_eyebrow and right_eyebrow; jpg, quality 100, one image.
 */
export function buildUpscaleInput(options: UpscaleOptions, image: { imageUrl: string; width: number; height: number }, seed: number): UpscaleInputRaw {
  const filter = filterFieldsFor(options.filter, options.strength);
  return {
    image: image.imageUrl,
    seed,
    prompt: '',
    output_format: 'jpg',
    output_quality: 100,
    lora_index: loraIndexFor(options.gender, options.ethnicity, options.level),
    numImages: 1,
    width: image.width,
    height: image.height,
    scale_factor: options.scale,
    upper_lip: options.excludeLips,
    lower_lip: options.excludeLips,
    filter_strength: filter.filter_strength,
    filter_index: filter.filter_index === 1 ? 1 : 0,
    filter_prompt: filter.filter_prompt,
    left_eyebrow: options.excludeEyebrows,
    right_eyebrow: options.excludeEyebrows,
    nose: options.excludeNose,
    hair: options.excludeHair,
  };
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
