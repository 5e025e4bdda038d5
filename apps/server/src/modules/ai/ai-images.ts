import sharp from 'sharp';
import type { LlmImage } from '../../providers/llm';

/** Longest side (px) of an image handed to the model: enough for a prompt, few tokens (decision 022). */
export const MODEL_IMAGE_MAX_SIDE = 1024;

/**
 * A stored (already inspected and re-encoded) image made small for the model: at most
 * MODEL_IMAGE_MAX_SIDE px on its longest side, JPEG quality 85, no metadata.
 */
export async function modelImage(bytes: Buffer): Promise<LlmImage> {
  const out = await sharp(bytes, { limitInputPixels: 60_000_000 })
    .rotate()
    .resize({ width: MODEL_IMAGE_MAX_SIDE, height: MODEL_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { mime: 'image/jpeg', bytes: out };
}
