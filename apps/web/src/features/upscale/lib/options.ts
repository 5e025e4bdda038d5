import {
  SCALE_FACTOR,
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
