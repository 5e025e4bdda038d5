import { UPLOAD_LIMITS } from '@dewy/contracts';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error';
import { sniffImageType, type InspectedMime } from '../../lib/image-type';

// The magic-number sniff lives below the modules (providers use it too); re-exported as part of the upload checks.
export { sniffImageType, type InspectedMime };

/**
 * Server-side checks of an uploaded photo (GUIDE §3 step 1, spec 001 §5): the type comes from the
 * bytes, never from the file name or the declared MIME; the pixel cap is read from the header before
 * anything is decoded (a 30000×30000 PNG of a few hundred bytes would otherwise ask for 2.7 GB); only
 * then is the whole image decoded once, to refuse truncated or corrupt files before a paid job runs.
 */

export interface ImageLimits {
  /** Largest file accepted (bytes). */
  maxBytes: number;
  /** Largest width × height accepted (pixels). */
  maxPixels: number;
  /** Longest side accepted (pixels). */
  maxSide: number;
}

/** What the header of an uploaded photo says, once the checks before decoding have passed. */
export interface ImageHeader {
  mime: InspectedMime;
  ext: 'jpg' | 'png';
  /** Stored pixel width and height, before any EXIF rotation (as sharp reports them). */
  width: number;
  height: number;
}

export interface InspectedImage extends ImageHeader {
  /** EXIF orientation 1..8 (1 when absent); 5..8 mean the picture is shown with width and height swapped. */
  orientation: number;
}

/**
 * Width and height (px) read from the header without decoding: the PNG IHDR chunk, or the first JPEG
 * start-of-frame (SOF0..SOF15 except DHT/JPG/DAC), walking segment lengths so that an EXIF thumbnail's
 * frame inside APP1 is skipped. Throws AppError IMAGE_CORRUPT when the header is missing, cut short or
 * gives a zero side.
 */
export function readImageSize(bytes: Buffer, mime: InspectedMime): { width: number; height: number } {
  const size = mime === 'image/png' ? readPngSize(bytes) : readJpegSize(bytes);
  if (!size || size.width === 0 || size.height === 0) {
    throw new AppError('IMAGE_CORRUPT', { details: { reason: 'no readable image header' } });
  }
  return size;
}

/**
 * The checks of an uploaded photo that need no decoding, in order, each before any costlier one:
 * (a) `bytes.length > limits.maxBytes` → AppError IMAGE_TOO_LARGE;
 * (b) type by magic bytes only (JPEG or PNG) → else UNSUPPORTED_IMAGE_TYPE, whatever the name or MIME said;
 * (c) width/height from the header, `width × height > maxPixels` or a side `> maxSide` →
 *     IMAGE_TOO_MANY_PIXELS, before anything is decoded.
 * The caller then decodes the whole image once (`inspectImage`, or the re-encoding of `prepareOriginal`).
 */
export function inspectHeader(bytes: Buffer, limits: ImageLimits = UPLOAD_LIMITS): ImageHeader {
  if (bytes.length > limits.maxBytes) {
    throw new AppError('IMAGE_TOO_LARGE', { details: { bytes: bytes.length, maxBytes: limits.maxBytes } });
  }
  const mime = sniffImageType(bytes);
  if (!mime) throw new AppError('UNSUPPORTED_IMAGE_TYPE');

  const { width, height } = readImageSize(bytes, mime);
  assertPixelLimits(width, height, limits);
  return { mime, ext: mime === 'image/png' ? 'png' : 'jpg', width, height };
}

/**
 * The pixel cap of an upload, from sizes read before decoding: `width × height > limits.maxPixels` or a
 * side `> limits.maxSide` → AppError IMAGE_TOO_MANY_PIXELS (with the sizes and limits as details).
 */
export function assertPixelLimits(width: number, height: number, limits: ImageLimits): void {
  if (width * height > limits.maxPixels || Math.max(width, height) > limits.maxSide) {
    throw new AppError('IMAGE_TOO_MANY_PIXELS', { details: { width, height, maxPixels: limits.maxPixels, maxSide: limits.maxSide } });
  }
}

/**
 * Checks an uploaded photo and tells what it is: the header checks (a)–(c) of `inspectHeader`, then
 * (d) one full decode by sharp (`failOn: 'truncated'`, `limitInputPixels`) streamed through
 *     statistics, so no full raster is kept → IMAGE_CORRUPT when truncated or damaged.
 * Limits default to UPLOAD_LIMITS of @dewy/contracts (25 MB, 50 MP, 12000 px).
 */
export async function inspectImage(bytes: Buffer, limits: ImageLimits = UPLOAD_LIMITS): Promise<InspectedImage> {
  const header = inspectHeader(bytes, limits);
  let orientation: number;
  try {
    const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: limits.maxPixels });
    orientation = (await image.metadata()).orientation ?? 1;
    await image.stats();
  } catch (e) {
    throw new AppError('IMAGE_CORRUPT', { cause: e, details: { reason: e instanceof Error ? e.message : String(e) } });
  }
  return { ...header, orientation };
}

function readPngSize(b: Buffer): { width: number; height: number } | undefined {
  // Signature (8), IHDR length (4) = 13, type "IHDR" (4), width (4), height (4).
  if (b.length < 24 || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** SOF markers that carry frame dimensions; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpegSize(b: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return undefined;
    // Any number of 0xFF fill bytes may precede a marker.
    while (i < b.length && b[i] === 0xff) i++;
    if (i >= b.length) return undefined;
    const marker = b[i++] as number;
    // Stand-alone markers: TEM and RSTn have no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    // Entropy-coded data or the end came before any frame header.
    if (marker === 0xda || marker === 0xd9) return undefined;
    if (i + 2 > b.length) return undefined;
    const len = b.readUInt16BE(i);
    if (len < 2) return undefined;
    if (JPEG_SOF.has(marker)) {
      // Length (2), precision (1), height (2), width (2).
      if (len < 7 || i + 7 > b.length) return undefined;
      return { height: b.readUInt16BE(i + 3), width: b.readUInt16BE(i + 5) };
    }
    i += len;
  }
  return undefined;
}
