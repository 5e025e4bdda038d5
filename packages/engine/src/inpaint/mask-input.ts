import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../io/image-io';

/**
 * Decodes a face-edit mask (spec 001 §3 `mask`) to a binary map at `width` × `height`: 1 = repaint.
 * Any format and size sharp reads. Transparent pixels count as "keep" (alpha is flattened on black), then
 * the brightest channel decides, so white-on-black masks and coloured strokes on a transparent layer (the
 * editor paints blue or red, 001 §2) both work. The map is resized with bilinear interpolation before the
 * threshold at 128, so edges stay where they were drawn whatever the mask's own size.
 * @throws Error 'NO_MASK_DECODE: …' when the bytes are empty or not an image.
 */
export async function decodeMask(mask: Buffer | Uint8Array, width: number, height: number): Promise<Uint8Array> {
  if (!mask || mask.length === 0) throw new Error('NO_MASK_DECODE: mask is missing (empty buffer)');
  let raw: Buffer;
  try {
    const grey = await sharp(mask, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' })
      .rotate()
      .flatten({ background: '#000000' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { data, info } = grey;
    const n = info.width * info.height;
    const c = info.channels;
    const max = Buffer.alloc(n);
    for (let i = 0, o = 0; i < n; i++, o += c) {
      let v = data[o]!;
      for (let k = 1; k < c; k++) if (data[o + k]! > v) v = data[o + k]!;
      max[i] = v;
    }
    raw = info.width === width && info.height === height
      ? max
      : await sharp(max, { raw: { width: info.width, height: info.height, channels: 1 }, limitInputPixels: false })
        .resize(width, height, { fit: 'fill', kernel: 'linear' })
        .extractChannel(0) // libvips hands a 1-band raw input back as sRGB otherwise
        .raw()
        .toBuffer();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`NO_MASK_DECODE: mask could not be decoded: ${msg.split('\n')[0] ?? 'unreadable image'}`, { cause: err });
  }
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = raw[i]! >= 128 ? 1 : 0;
  return out;
}

/** Pixel bounding box, inclusive start, exclusive end. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Bounding box of the non-zero pixels of `m` (w × h), or null when there are none. */
export function maskBounds(m: Uint8Array, w: number, h: number): Rect | null {
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (m[row + x] === 0) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  return x1 < 0 ? null : { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

/**
 * Disc dilation: pixel p is set when some set pixel q of `m` has |p − q| ≤ r (Euclidean, pixel centres).
 * Only the mask's edge pixels stamp the disc, so the cost follows the outline, not the area.
 */
export function dilateDisc(m: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const out = new Uint8Array(m);
  if (r <= 0) return out;
  const ri = Math.floor(r), r2 = r * r;
  const span = new Int32Array(2 * ri + 1); // half-width of the disc per row offset
  for (let dy = -ri; dy <= ri; dy++) span[dy + ri] = Math.floor(Math.sqrt(Math.max(0, r2 - dy * dy)));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (m[i] === 0) continue;
      const edge = x === 0 || x === w - 1 || y === 0 || y === h - 1 || m[i - 1] === 0 || m[i + 1] === 0 || m[i - w] === 0 || m[i + w] === 0;
      if (!edge) continue;
      for (let dy = -ri; dy <= ri; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        const s = span[dy + ri]!;
        const a = Math.max(0, x - s), b = Math.min(w - 1, x + s);
        out.fill(1, yy * w + a, yy * w + b + 1);
      }
    }
  }
  return out;
}
