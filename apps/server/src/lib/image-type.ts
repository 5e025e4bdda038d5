/**
 * The image type of bytes from their magic number, below the modules and the providers (decision 039):
 * the upload checks (modules/uploads image-inspect) and the vendor adapters (providers/kling) share it.
 */

/** The image types an upload or a vendor result may have. */
export type InspectedMime = 'image/jpeg' | 'image/png';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The image type of `bytes` from its magic number alone: JPEG (`FF D8 FF`) or PNG
 * (`89 50 4E 47 0D 0A 1A 0A`); `undefined` for anything else (GIF, WebP, HEIC, text…).
 */
export function sniffImageType(bytes: Uint8Array): InspectedMime | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.equals(Buffer.from(bytes.buffer, bytes.byteOffset, 8))) return 'image/png';
  return undefined;
}

/**
 * True for WebP bytes: a RIFF container (`52 49 46 46`, 4 bytes of length) of form type `WEBP`. WebP is
 * accepted where a page accepts it (002 §5, the generation reference) and converted to PNG before the
 * JPEG/PNG-only upload pipeline (`webpToPng`, modules/uploads).
 */
export function isWebp(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, 12);
  return head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP';
}
