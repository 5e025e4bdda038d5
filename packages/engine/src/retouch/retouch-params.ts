/**
 * Retouch parameter sets, one per model index (`lora_index`, spec 001 §5). The hosted service maps each
 * index to a LoRA; locally each index is a documented set of classic retouch operations. Lengths are
 * fractions of the face width so results do not depend on resolution.
 */
export interface RetouchParams {
  /** Human-readable name (spec label). */
  name: string;
  /** 0..1 blend of the edge-preserving smoothed skin into the original, inside the skin mask. */
  smoothing: number;
  /** Guided-filter radius as a fraction of the face width. */
  smoothRadius: number;
  /** Guided-filter edge threshold (std-dev in 8-bit levels): larger smooths stronger edges. */
  smoothEdge: number;
  /**
   * 0..1 share of the cheeks' fine-scale (sigma 1.5 px) high-frequency energy the retouched skin keeps:
   * the original's fine texture (pores, freckle edges; band below max(1.5 px, 0.5 % of the face width))
   * goes back in with the gain that hits this share (texture.ts). See {@link TEXTURE_BANDS}.
   */
  textureKeep: number;
  /** Blemish detection radius as a fraction of the face width (0 disables). */
  blemishRadius: number;
  /** 0..1 strength of blemish (dark/red spot) replacement. */
  blemishStrength: number;
  /** 0..1 pull of blotchy mid-scale colour toward the smooth local skin tone. */
  toneEvening: number;
  /** 0..1 screen-lift of skin highlights (glow / 물광 "water light" look). */
  glow: number;
  /** 0..1 reduction of skin shine (matte makeup). */
  matte: number;
  /** Lip tint colour (sRGB) and 0..1 amount; amount 0 = none. */
  lipTint: { rgb: [number, number, number]; amount: number };
  /** Cheek blush colour (sRGB) and 0..1 amount; amount 0 = none. */
  blush: { rgb: [number, number, number]; amount: number };
  /** Global grade: temperature (−1 cool … +1 warm), contrast (−1..1), saturation (−1..1). */
  grade: { temperature: number; contrast: number; saturation: number };
}

const NO_TINT = { rgb: [0, 0, 0] as [number, number, number], amount: 0 };
const FLAT = { temperature: 0, contrast: 0, saturation: 0 };

const BASE: RetouchParams = {
  name: 'basic',
  smoothing: 0.75,
  smoothRadius: 0.028,
  smoothEdge: 9,
  textureKeep: 0.6,
  blemishRadius: 0.02,
  blemishStrength: 0.8,
  toneEvening: 0.45,
  glow: 0,
  matte: 0,
  lipTint: NO_TINT,
  blush: NO_TINT,
  grade: FLAT,
};

/** Parameter sets indexed by `lora_index` 0..8 (001 §5). */
export const RETOUCH_PARAMS: readonly RetouchParams[] = [
  // 0 East-Asian female, makeup: smooth even base, coral-rose lips, soft peach blush, a touch brighter.
  { ...BASE, name: 'east-asian-female-makeup', smoothing: 0.85, textureKeep: 0.45, toneEvening: 0.55,
    lipTint: { rgb: [214, 86, 102], amount: 0.42 }, blush: { rgb: [240, 150, 150], amount: 0.22 },
    grade: { temperature: 0.02, contrast: 0.04, saturation: 0.04 } },
  // 1 glow / dewy (물광): strong smoothing plus specular lift on highlights (cheekbones, nose bridge, forehead).
  { ...BASE, name: 'glow', smoothing: 0.9, smoothEdge: 10, textureKeep: 0.45, toneEvening: 0.6, glow: 0.35,
    lipTint: { rgb: [226, 110, 120], amount: 0.18 }, grade: { temperature: 0, contrast: -0.03, saturation: 0.02 } },
  // 2 basic (default): clean natural retouch, no colour changes.
  { ...BASE },
  // 3 Western female basic: less smoothing and evening, more texture kept (Western retouch norms are lighter).
  { ...BASE, name: 'western-female-basic', smoothing: 0.6, textureKeep: 0.66, blemishStrength: 0.7, toneEvening: 0.35 },
  // 4 Western female makeup: deeper rose lips, bronzed blush, warmer grade.
  { ...BASE, name: 'western-female-makeup', smoothing: 0.75, textureKeep: 0.5, toneEvening: 0.5,
    lipTint: { rgb: [178, 52, 72], amount: 0.45 }, blush: { rgb: [214, 120, 110], amount: 0.2 },
    grade: { temperature: 0.06, contrast: 0.06, saturation: 0.05 } },
  // 5 Western male basic: light touch, keep stubble and pores, blemish fix only on clear spots.
  { ...BASE, name: 'western-male-basic', smoothing: 0.4, smoothEdge: 7, textureKeep: 0.78, blemishStrength: 0.6, toneEvening: 0.3 },
  // 6 East-Asian male basic: slightly more evening than 5, still texture-preserving.
  { ...BASE, name: 'east-asian-male-basic', smoothing: 0.5, smoothEdge: 8, textureKeep: 0.72, blemishStrength: 0.7, toneEvening: 0.4 },
  // 7 matte makeup: even base, shine reduced, muted rose lips.
  { ...BASE, name: 'matte-makeup', smoothing: 0.85, textureKeep: 0.45, toneEvening: 0.55, matte: 0.45,
    lipTint: { rgb: [170, 78, 86], amount: 0.4 }, blush: { rgb: [220, 140, 135], amount: 0.12 },
    grade: { temperature: 0, contrast: 0.02, saturation: -0.06 } },
  // 8 basic chic: basic retouch with a cooler, crisper grade.
  { ...BASE, name: 'basic-chic', smoothing: 0.7, textureKeep: 0.6, grade: { temperature: -0.1, contrast: 0.12, saturation: -0.08 } },
];

/**
 * Documented band of fine texture kept per model index: cheek skin's fine-scale (sigma 1.5 px) high-
 * frequency energy after ÷ before the local retouch (both after the same global grade), as `npm run eval`
 * measures it. Basic levels keep about half to two thirds, makeup levels never less than 0.35 (issue 12:
 * freckles and pores stay visible at reduced contrast), the male levels more. Tested on the fixtures.
 */
export const TEXTURE_BANDS: ReadonlyArray<readonly [number, number]> = [
  [0.35, 0.55], // 0 makeup (target 0.45)
  [0.35, 0.55], // 1 glow (0.45)
  [0.5, 0.7], // 2 basic (0.6)
  [0.55, 0.75], // 3 western female basic (0.65)
  [0.4, 0.6], // 4 western female makeup (0.5)
  [0.68, 0.88], // 5 western male basic (0.78)
  [0.62, 0.82], // 6 east-asian male basic (0.72)
  [0.35, 0.55], // 7 matte makeup (0.45)
  [0.5, 0.7], // 8 basic chic (0.6)
];

/**
 * The light version of a parameter set, for a face whose mesh fits only fairly (face-fit.ts): half the
 * smoothing, blemish, tone-evening, glow and matte, more texture, and no makeup painted on polygons
 * that may sit off the lips or cheeks.
 */
export function lightParams(p: RetouchParams): RetouchParams {
  return {
    ...p,
    name: `${p.name} (light)`,
    smoothing: p.smoothing * 0.5,
    textureKeep: p.textureKeep + 0.5 * (1 - p.textureKeep),
    blemishStrength: p.blemishStrength * 0.5,
    toneEvening: p.toneEvening * 0.5,
    glow: p.glow * 0.5,
    matte: p.matte * 0.5,
    lipTint: { ...p.lipTint, amount: 0 },
    blush: { ...p.blush, amount: 0 },
  };
}

/** Returns the parameter set for a model index; throws `INVALID_OPTIONS` outside 0..8. */
export function retouchParamsFor(loraIndex: number): RetouchParams {
  const p = Number.isInteger(loraIndex) ? RETOUCH_PARAMS[loraIndex] : undefined;
  if (!p) throw new Error(`INVALID_OPTIONS: loraIndex must be an integer 0..8, got ${loraIndex}`);
  return p;
}

/** Which colour filter a request selects (spec 001 §5: index 1 = ppoyong, index 0 + 'studio…' prompt = studio). */
export type FilterKind = 'none' | 'studio' | 'ppoyong';

export function filterKindOf(filterIndex: number, filterPrompt: string, strength: number): FilterKind {
  // The page sends strength 0.01 with index 0 and an empty prompt for "none".
  if (strength <= 0.01 && filterIndex === 0 && !/studio/i.test(filterPrompt)) return 'none';
  if (strength <= 0) return 'none';
  if (filterIndex === 1) return 'ppoyong';
  if (/studio/i.test(filterPrompt)) return 'studio';
  return 'none';
}
