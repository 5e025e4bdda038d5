import sharp from 'sharp';
import { IMAGE_EDIT } from '@dewy/contracts';

/**
 * The mask of image edit (decision 023). Seedream has no mask parameter, so the mask is honoured in two
 * steps around the vendor call:
 *  1. the mask merge sent to the vendor: image 1 with the painted region tinted in the customer's mask
 *     colour at the editor's overlay opacity (002 §9: 0.35), as the spec's clients send it;
 *  2. the result composited back onto the clean image 1 outside the mask, with a feathered edge, so
 *     nothing the customer did not paint changes.
 */

const COLORS = { blue: { r: 0, g: 102, b: 255 }, red: { r: 255, g: 32, b: 32 } } as const;
export type MaskColor = keyof typeof COLORS;

/** Longest side sent to the vendor (px) and its JPEG quality; keeps each reference under 10 MB. */
const VENDOR_MAX_SIDE = 4096;

/**
 * A reference as the vendor takes it: JPEG (quality 92), upright, at most 4096 px on its longest side,
 * as a `data:image/jpeg;base64,…` URI. With `mask` (white = edit, any size), the region is tinted with
 * `color` at `IMAGE_EDIT.overlayOpacity` first (the mask merge).
 */
export async function vendorReference(image: Buffer, mask?: { bytes: Buffer; color: MaskColor }): Promise<string> {
  let img = sharp(image).rotate().resize({ width: VENDOR_MAX_SIDE, height: VENDOR_MAX_SIDE, fit: 'inside', withoutEnlargement: true }).removeAlpha();
  if (mask) {
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    const m = await sharp(mask.bytes).flatten({ background: '#000' }).greyscale().resize(info.width, info.height, { fit: 'fill' }).extractChannel(0).raw().toBuffer();
    const c = COLORS[mask.color];
    const a = IMAGE_EDIT.overlayOpacity;
    const ch = info.channels;
    for (let i = 0, p = 0; p < m.length; p++, i += ch) {
      const w = (m[p]! / 255) * a;
      if (w === 0) continue;
      data[i] = Math.round(data[i]! * (1 - w) + c.r * w);
      data[i + 1] = Math.round(data[i + 1]! * (1 - w) + c.g * w);
      data[i + 2] = Math.round(data[i + 2]! * (1 - w) + c.b * w);
    }
    img = sharp(data, { raw: { width: info.width, height: info.height, channels: ch } });
  }
  const jpeg = await img.jpeg({ quality: 92 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/**
 * Composites a vendor result back onto the original outside the mask: out = result·m + original·(1−m),
 * where m is the mask resized to the result (fill) and feathered with a Gaussian blur of sigma
 * max(2, 1 % of the shorter side) px. The original is resized (fill) to the result's size.
 * @returns JPEG (quality 95) of the result's size.
 */
export async function compositeOutsideMask(result: Buffer, original: Buffer, mask: Buffer): Promise<{ bytes: Buffer; width: number; height: number }> {
  const res = await sharp(result).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = res.info;
  const orig = await sharp(original).rotate().removeAlpha().resize(width, height, { fit: 'fill' }).raw().toBuffer();
  const sigma = Math.max(2, Math.min(width, height) * 0.01);
  const m = await sharp(mask).flatten({ background: '#000' }).greyscale().resize(width, height, { fit: 'fill' }).blur(sigma).extractChannel(0).raw().toBuffer();
  const out = Buffer.alloc(width * height * 3);
  const rc = res.info.channels;
  for (let p = 0; p < width * height; p++) {
    const w = m[p]! / 255;
    for (let k = 0; k < 3; k++) out[p * 3 + k] = Math.round(res.data[p * rc + k]! * w + orig[p * 3 + k]! * (1 - w));
  }
  const bytes = await sharp(out, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
  return { bytes, width, height };
}
