import { SCALE_FACTOR, isUpscaleBlocked, maxScaleFactor } from '@dewy/contracts';

/** The blocking rule (001 §5) as the scale slider shows it for the loaded photo. */
export interface ScaleLimit {
  /** Largest factor on the slider that the rule allows for this photo (≥ 1). */
  max: number;
  /** True when the marker is worth drawing (the photo cannot go all the way to ×2). */
  limited: boolean;
  /** The chosen factor is blocked (generate would open the blocking dialog). */
  blocked: boolean;
  /** Output size at the chosen factor (px), as the engine rounds it. */
  width: number;
  height: number;
}

/** The scale limit for a photo of `width`×`height` at `scale`; null without a photo. */
export function scaleLimitFor(image: { width: number; height: number } | null, scale: number): ScaleLimit | null {
  if (!image || image.width <= 0 || image.height <= 0) return null;
  const max = maxScaleFactor(image.width, image.height);
  return {
    max,
    limited: max < SCALE_FACTOR.max,
    blocked: isUpscaleBlocked(image.width, image.height, scale),
    width: Math.round(image.width * scale),
    height: Math.round(image.height * scale),
  };
}
