import {
  DEWY_SKIN_FILTER,
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

/** What the retouch controls hold (001 §2/§5), for one photo (the workspace) or every photo (a batch). */
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

/**
 * Apply a change; a retouch level not offered for the gender × ethnicity resets to basic (001 §5); a
 * change to dewy skin (`glow`) presets its filter, DEWY_SKIN_FILTER (001 §9).
 */
export function updateOptions(prev: UpscaleOptions, patch: Partial<UpscaleOptions>): UpscaleOptions {
  const next = { ...prev, ...patch };
  next.level = normalizeRetouchLevel(next.gender, next.ethnicity, next.level);
  // Choosing dewy skin (glow) brings its filter, fair skin at 0.75 (001 §9), unless the same change
  // names a filter (a past job's options restored as they were).
  if (next.level === 'glow' && prev.level !== 'glow' && patch.filter === undefined && patch.strength === undefined) {
    next.filter = DEWY_SKIN_FILTER.filter;
    next.strength = DEWY_SKIN_FILTER.strength;
  }
  return next;
}

/** The fields of the upscale input that the controls decide (no image, size or seed). */
export type RetouchInputFields = Omit<UpscaleInputRaw, 'image' | 'seed' | 'width' | 'height'>;

/**
 * The upscale input's fields from the controls (001 §3/§5): lips send upper_lip and lower_lip,
 * eyebrows left_eyebrow and right_eyebrow; jpg, quality 100, one image. The workspace adds the image,
 * its size and the seed; a batch sends these as its `options`.
 */
export function retouchInputFields(options: UpscaleOptions): RetouchInputFields {
  const filter = filterFieldsFor(options.filter, options.strength);
  return {
    prompt: '',
    output_format: 'jpg',
    output_quality: 100,
    lora_index: loraIndexFor(options.gender, options.ethnicity, options.level),
    numImages: 1,
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
