import { createHash } from 'node:crypto';
import { UPLOAD_LIMITS } from '@dewy/contracts';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error';
import { isWebp } from '../../lib/image-type';
import { assertPixelLimits, inspectHeader, type ImageLimits, type InspectedMime } from './image-inspect';

/** JPEG quality of stored originals: near-transparent for a photo that is retouched afterwards. */
export const ORIGINAL_JPEG_QUALITY = 95;

/**
 * zlib level of stored PNG originals. Level 3 deflates a 50 MP PNG about 2.5× faster than the
 * default 6 for files about 15 % larger (measured, docs/decisions/009); PNG originals are rare.
 */
export const ORIGINAL_PNG_COMPRESSION = 3;

/**
 * Re-encodes run at once per process. Each holds one of libuv's 4 pool threads (sharp) for up to a
 * few seconds on a 50 MP photo, and file-system calls share that pool: two leave room for the rest.
 */
export const MAX_CONCURRENT_REENCODES = 2;

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `fn` when one of MAX_CONCURRENT_REENCODES slots is free (first come, first served). */
async function inReencodeSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT_REENCODES) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await fn();
  } finally {
    // Hand the slot straight to the next caller, or free it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** An uploaded photo as we store it: only the picture, upright, sRGB, without metadata. */
export interface PreparedOriginal {
  /** The re-encoded file. */
  bytes: Buffer;
  mime: InspectedMime;
  ext: 'jpg' | 'png';
  /** Pixel size of the upright picture (EXIF orientation applied: 5..8 swap the sides of the upload). */
  width: number;
  height: number;
  /** Base64 SHA-256 of `bytes`. */
  sha256: string;
}

/**
 * The one step every upload goes through before it is stored (direct multipart upload and presigned
 * confirm; docs/decisions/009): the header checks of `inspectHeader` (size, magic bytes, pixel cap
 * before decoding), then one full decode by sharp (`failOn: 'truncated'`, `limitInputPixels`) that
 * applies the EXIF orientation (`rotate()`), converts to sRGB (embedded ICC profiles and CMYK are
 * converted, not dropped) and re-encodes: JPEG stays JPEG (quality 95, libjpeg-turbo without mozjpeg
 * for speed, chroma 4:2:0 when the upload was 4:2:0 — re-encoding cannot add chroma detail the file
 * never had — else 4:4:4), PNG stays PNG (alpha kept, zlib level 3). sharp writes no metadata unless asked
 * (`keepMetadata`/`withMetadata` are never called), so EXIF (GPS position, camera serial, orientation),
 * XMP, IPTC, ICC, comments, PNG text chunks and any bytes after the image's end (HTML or ZIP
 * polyglots) are gone. The decode replaces `inspectImage`'s separate one: a truncated or damaged file
 * fails here.
 *
 * Runs on libuv's thread pool (sharp), off the event loop, at most MAX_CONCURRENT_REENCODES at once
 * (later calls wait their turn). Measured on 2 cores: a 12 MP phone JPEG
 * ≈ 0.2–0.3 s, a 25 MB / 50 MP JPEG ≈ 1.5–3 s (see the decision record).
 * @throws AppError IMAGE_TOO_LARGE | UNSUPPORTED_IMAGE_TYPE | IMAGE_TOO_MANY_PIXELS | IMAGE_CORRUPT
 */
export async function prepareOriginal(input: Buffer, limits: ImageLimits = UPLOAD_LIMITS): Promise<PreparedOriginal> {
  const header = inspectHeader(input, limits);
  let data: Buffer;
  let width: number;
  let height: number;
  try {
    const image = sharp(input, { failOn: 'truncated', limitInputPixels: limits.maxPixels });
    const meta = await image.metadata();
    const upright = image.rotate().toColourspace('srgb');
    const encoded =
      header.mime === 'image/png'
        ? upright.png({ compressionLevel: ORIGINAL_PNG_COMPRESSION })
        : upright.jpeg({ quality: ORIGINAL_JPEG_QUALITY, mozjpeg: false, chromaSubsampling: meta.chromaSubsampling === '4:2:0' ? '4:2:0' : '4:4:4' });
    const out = await inReencodeSlot(() => encoded.toBuffer({ resolveWithObject: true }));
    data = out.data;
    width = out.info.width;
    height = out.info.height;
  } catch (e) {
    throw new AppError('IMAGE_CORRUPT', { cause: e, details: { reason: e instanceof Error ? e.message : String(e) } });
  }
  return { bytes: data, mime: header.mime, ext: header.ext, width, height, sha256: createHash('sha256').update(data).digest('base64') };
}

/**
 * A WebP file (002 §5: the generation reference may be one) as a PNG the upload pipeline takes, every
 * other file unchanged: the same limits as an upload, checked in the same order — bytes
 * (`limits.maxBytes` → IMAGE_TOO_LARGE), then width × height from the header before any decoding
 * (`maxPixels` / `maxSide` → IMAGE_TOO_MANY_PIXELS), then one decode (`failOn: 'truncated'`) that applies
 * the orientation (`rotate()`) and writes a lossless PNG (zlib level ORIGINAL_PNG_COMPRESSION; alpha
 * kept). The result still goes through `prepareOriginal` (or the upload checks) like any PNG.
 * @throws AppError IMAGE_TOO_LARGE | IMAGE_TOO_MANY_PIXELS | IMAGE_CORRUPT (a WebP that does not decode)
 */
export async function webpToPng(input: Buffer, limits: ImageLimits = UPLOAD_LIMITS): Promise<Buffer> {
  if (!isWebp(input)) return input;
  if (input.length > limits.maxBytes) throw new AppError('IMAGE_TOO_LARGE', { details: { bytes: input.length, maxBytes: limits.maxBytes } });
  const corrupt = (e: unknown) => new AppError('IMAGE_CORRUPT', { cause: e, details: { reason: e instanceof Error ? e.message : String(e) } });
  const meta = await sharp(input).metadata().catch((e: unknown) => {
    throw corrupt(e);
  });
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width === 0 || height === 0) throw corrupt(new Error('no readable WebP header'));
  assertPixelLimits(width, height, limits);
  try {
    return await inReencodeSlot(() => sharp(input, { failOn: 'truncated', limitInputPixels: limits.maxPixels }).rotate().png({ compressionLevel: ORIGINAL_PNG_COMPRESSION }).toBuffer());
  } catch (e) {
    throw corrupt(e);
  }
}
