/**
 * Upscale/retouch rules of spec 001 §5 and §9, shared so that the page and the server agree and the
 * server can enforce every rule the page enforces.
 */

export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];
export const ETHNICITIES = ['east_asian', 'western'] as const;
export type Ethnicity = (typeof ETHNICITIES)[number];

/** Retouch levels; the Korean labels are the spec's option names. */
export const RETOUCH_LEVELS = ['basic', 'makeup', 'matte_makeup', 'glow', 'basic_chic'] as const;
export type RetouchLevel = (typeof RETOUCH_LEVELS)[number];
export const RETOUCH_LEVEL_LABEL_KO: Record<RetouchLevel, string> = {
  basic: '보정(기본)',
  makeup: '보정(메이크업)',
  matte_makeup: '보정(매트메이크업)',
  glow: '물광보정',
  basic_chic: '보정(기본_chic)',
};

/** Options offered for a gender × ethnicity (001 §5); anything else offers 'basic' only. */
export function retouchOptionsFor(gender: Gender, ethnicity: Ethnicity): RetouchLevel[] {
  if (gender === 'female' && ethnicity === 'east_asian') return ['basic', 'makeup', 'matte_makeup', 'glow', 'basic_chic'];
  if (gender === 'female' && ethnicity === 'western') return ['basic', 'makeup', 'matte_makeup'];
  return ['basic'];
}

/** An option not in the list resets to 'basic' (001 §5). */
export function normalizeRetouchLevel(gender: Gender, ethnicity: Ethnicity, level: RetouchLevel): RetouchLevel {
  return retouchOptionsFor(gender, ethnicity).includes(level) ? level : 'basic';
}

/**
 * Model index (`lora_index`) for the chosen options, 001 §5: East Asian female makeup 0, matte 7,
 * glow 1, basic 2, chic 8; Western female basic 3, makeup 4, matte 7; Western male basic 5; East Asian
 * male basic 6; default 2.
 */
export function loraIndexFor(gender: Gender, ethnicity: Ethnicity, level: RetouchLevel): number {
  const l = normalizeRetouchLevel(gender, ethnicity, level);
  if (gender === 'female' && ethnicity === 'east_asian') {
    return ({ makeup: 0, matte_makeup: 7, glow: 1, basic: 2, basic_chic: 8 } as const)[l];
  }
  if (gender === 'female' && ethnicity === 'western') {
    return ({ basic: 3, makeup: 4, matte_makeup: 7, glow: 3, basic_chic: 3 } as const)[l];
  }
  if (gender === 'male' && ethnicity === 'western') return 5;
  if (gender === 'male' && ethnicity === 'east_asian') return 6;
  return 2;
}

export const LORA_INDICES = [0, 1, 2, 3, 4, 5, 6, 7, 8] as const;

export const FILTERS = ['none', 'studio', 'ppoyong'] as const;
export type FilterName = (typeof FILTERS)[number];
/** The fixed phrase sent as filter_prompt for the fair-skin ('ppoyong') filter. */
export const PPOYONG_FILTER_PROMPT = 'asle filter';
export const STUDIO_FILTER_PROMPT = 'studio filter';

/**
 * Filter fields of the request (001 §5): none or strength 0 → strength 0.01, index 0; ppoyong with
 * strength > 0 → index 1 and the fixed phrase; otherwise index 0 and 'studio filter'.
 */
export function filterFieldsFor(filter: FilterName, strength: number): { filter_strength: number; filter_index: number; filter_prompt: string } {
  if (filter === 'none' || strength <= 0) return { filter_strength: 0.01, filter_index: 0, filter_prompt: '' };
  if (filter === 'ppoyong') return { filter_strength: strength, filter_index: 1, filter_prompt: PPOYONG_FILTER_PROMPT };
  return { filter_strength: strength, filter_index: 0, filter_prompt: STUDIO_FILTER_PROMPT };
}

/**
 * Scale factor (001 §5: a slider of step 0.1 up to 2). The contract accepts 0.1 ≤ factor ≤ 2, the
 * range the slider can really produce, so that a factor the engine cannot honour (0, 0.001) is refused
 * with 400 before anything is charged (issue 7 item 10). Values between grid steps are accepted (API
 * clients) and rounded by the server to 0.01 before the cost is computed; the slider starts at `min`.
 */
export const SCALE_FACTOR = { min: 0.1, max: 2, step: 0.1, default: 1 } as const;
export const FILTER_STRENGTH = { min: 0, max: 1, step: 0.05 } as const;

/**
 * The dewy-skin (물광보정, level `glow`) look: the glow model with the fair-skin filter at 0.75 — the
 * result "carries the label 'Fair-skin filter 0.75'" (001 §9). Choosing the level presets the filter so
 * (the customer may change it); the result's label names the filter it was really made with.
 */
export const DEWY_SKIN_FILTER = { filter: 'ppoyong', strength: 0.75 } as const satisfies { filter: FilterName; strength: number };

/** Width + height after scaling, rounded per side as the engine produces it (px). */
export function scaledSum(width: number, height: number, factor: number): number {
  return Math.round(width * factor) + Math.round(height * factor);
}

/**
 * Credit cost of an upscale, 001 §9: 80 when width+height after scaling is under 2500; at 2500 or
 * more, 100 plus 5 per full 100 px above 2500.
 * @param width source width (px) @param height source height (px) @param factor scale factor
 */
export function upscaleCost(width: number, height: number, factor: number): number {
  const sum = scaledSum(width, height, factor);
  if (sum < 2500) return 80;
  return 100 + 5 * Math.floor((sum - 2500) / 100);
}

/** Blocked: scale factor ≠ 1 and scaled width+height ≥ 4000 (001 §5/§9). */
export const UPSCALE_BLOCK_SUM = 4000;
export function isUpscaleBlocked(width: number, height: number, factor: number): boolean {
  return factor !== 1 && scaledSum(width, height, factor) >= UPSCALE_BLOCK_SUM;
}

/**
 * The largest factor on the slider grid (SCALE_FACTOR.step, at most SCALE_FACTOR.max) that
 * {@link isUpscaleBlocked} allows for a photo, so the page can show the limit before the click.
 * Never below 1: factor 1 is never blocked. E.g. 1024×1024 → 1.9 (×2 would be 2048 + 2048 ≥ 4000).
 * Factors below the result are not all allowed for very large photos (≥ 4445 px width + height blocks
 * ×0.9 while ×1 passes); check a given factor with isUpscaleBlocked.
 * @param width source width (px) @param height source height (px)
 */
export function maxScaleFactor(width: number, height: number): number {
  const steps = Math.round(SCALE_FACTOR.max / SCALE_FACTOR.step);
  for (let k = steps; k > 0; k--) {
    // Rounded like the slider's own values: 1.1, never 1.1000000000000001.
    const factor = Number((k * SCALE_FACTOR.step).toFixed(6));
    if (!isUpscaleBlocked(width, height, factor)) return factor;
  }
  return 1;
}

/** The 4000-px notice threshold of the guide (001 §2). */
export const LARGE_IMAGE_NOTICE_SUM = 4000;

/** Size badge from width + height of the resized image (001 §5). */
export type SizeBadge = 'BEST!' | 'NORMAL' | 'WORST!';
export function sizeBadge(sum: number): SizeBadge {
  if (sum >= 2500 && sum <= 3100) return 'BEST!';
  if (sum >= 2048 && sum < 2500) return 'NORMAL';
  return 'WORST!';
}

/**
 * Client-side resize at upload by the pixel sum (width+height), 001 §5: under 5000 unchanged; from
 * 5000 scaled by 0.2 below 6000, 1/6 below 7000, 1/7 below 8000, 1/8 below 9000, 1/9 below 10000, 0.1
 * from 10000; then the minimum side is forced to at least 1000 px. JPEG quality 0.9.
 * @returns the target size, or null when the image stays as it is.
 */
export function uploadResizeTarget(width: number, height: number): { width: number; height: number } | null {
  const sum = width + height;
  if (sum < 5000) return null;
  let f: number;
  if (sum < 6000) f = 0.2;
  else if (sum < 7000) f = 1 / 6;
  else if (sum < 8000) f = 1 / 7;
  else if (sum < 9000) f = 1 / 8;
  else if (sum < 10000) f = 1 / 9;
  else f = 0.1;
  let w = Math.round(width * f);
  let h = Math.round(height * f);
  const minSide = Math.min(w, h);
  if (minSide < 1000) {
    const k = 1000 / minSide;
    w = Math.round(w * k);
    h = Math.round(h * k);
  }
  return { width: w, height: h };
}
export const UPLOAD_RESIZE_JPEG_QUALITY = 0.9;
