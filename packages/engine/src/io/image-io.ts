import sharp from 'sharp';

/**
 * Largest decoded image we accept, in pixels (width × height). sharp refuses anything bigger before
 * allocating, which protects the worker from decompression bombs. 50 MP covers 8K photos; the spec caps
 * uploads far below that (width + height < 5000 after the page's own downscale, 001 §5).
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** An 8-bit interleaved RGB image (3 bytes per pixel, row-major, no padding). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Decodes JPEG/PNG/WebP bytes to RGB: EXIF orientation applied, alpha flattened on white, sRGB, metadata
 * dropped. Throws `NO_IMAGE_DECODE: …` for unreadable/truncated data and `IMAGE_TOO_LARGE: …` above
 * {@link MAX_INPUT_PIXELS}.
 */
export async function decodeImage(input: Buffer | Uint8Array): Promise<RgbImage> {
  if (!input || input.length === 0) throw new Error('NO_IMAGE_DECODE: empty input');
  try {
    // failOn 'warning' makes libvips reject truncated JPEG/PNG instead of returning grey padding.
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected channel count ${info.channels}`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(msg)) throw new Error(`IMAGE_TOO_LARGE: more than ${MAX_INPUT_PIXELS} pixels`, { cause: err });
    throw new Error(`NO_IMAGE_DECODE: ${msg.split('\n')[0] ?? 'unreadable image'}`, { cause: err });
  }
}

/**
 * Resizes an RGB image to exactly `width` × `height` with lanczos3 (sharp/libvips). This is THE resampler
 * for "original at output size": exclusion regions are pasted from its result, so every path that needs
 * the plain image at output size must call this function and nothing else.
 */
export async function resizeRgb(img: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (img.width === width && img.height === height) return { data: new Uint8Array(img.data), width, height };
  const data = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 }, limitInputPixels: false })
    .resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
}

/**
 * Encodes RGB to JPEG (quality 1..100, 4:4:4 chroma at ≥ 90 so retouched skin keeps its colour edges)
 * or PNG. No metadata is written: sharp strips EXIF/ICC unless asked to keep it.
 */
export async function encodeImage(img: RgbImage, format: 'jpg' | 'png', quality: number): Promise<Buffer> {
  const pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 }, limitInputPixels: false });
  if (format === 'png') return pipeline.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
  const q = Math.max(1, Math.min(100, Math.round(quality)));
  return pipeline.jpeg({ quality: q, chromaSubsampling: q >= 90 ? '4:4:4' : '4:2:0', mozjpeg: false }).toBuffer();
}
