import { IMAGE_EDIT, IMAGE_EDIT_PRESETS, clampImageEditSide, type ImageEditPreset } from '@dewy/contracts';
import { INSUFFICIENT_CREDITS_KEY } from '../../../shared/tool-job/lib/tool-messages';

/**
 * The image-edit page's rules (spec 002 §5, §8, §9), kept pure so they are unit-tested; the server
 * enforces the same ones (apps/server/src/modules/image-edit).
 */

/** An i18n key with its values. */
export interface Message {
  key: string;
  values?: Record<string, string | number>;
}

/** 002 §5: only image/jpeg and image/png. */
export function fileTypeError(file: { type: string }): Message | null {
  return (IMAGE_EDIT.mimes as readonly string[]).includes(file.type) ? null : { key: 'imageEdit.error.fileType' };
}

/** 002 §5: at most 9 MB (9437184 bytes). */
export function fileSizeError(file: { size: number }): Message | null {
  return file.size > IMAGE_EDIT.maxBytes ? { key: 'imageEdit.error.fileSize' } : null;
}

/** 002 §5: at least 921600 pixels (960x960); the message carries the current size. */
export function pixelError(width: number, height: number): Message | null {
  return width * height < IMAGE_EDIT.minPixels ? { key: 'imageEdit.error.tooSmall', values: { width, height } } : null;
}

/** Width and height after the scale slider: side × 2^scale, clamped to 1..4096 (002 §5). */
export function scaledSize(width: number, height: number, scale: number): { width: number; height: number } {
  const k = 2 ** scale;
  return { width: clampImageEditSide(width * k), height: clampImageEditSide(height * k) };
}

/** The preset matching a size exactly, if any. */
export function presetOf(width: number, height: number): ImageEditPreset | null {
  for (const [name, [w, h]] of Object.entries(IMAGE_EDIT_PRESETS)) if (w === width && h === height) return name as ImageEditPreset;
  return null;
}

/** A random seed 1..100000 (002 §5: random by default). */
export function randomSeed(rand: () => number = Math.random): number {
  return IMAGE_EDIT.seed.min + Math.floor(rand() * (IMAGE_EDIT.seed.max - IMAGE_EDIT.seed.min + 1));
}

/** A seed typed by the customer: an integer 1..100000, else null. */
export function parseSeed(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= IMAGE_EDIT.seed.min && n <= IMAGE_EDIT.seed.max ? n : null;
}

/** Indexes of the free tiles that a drop of `count` files fills, in order (002 §5: next free tiles). */
export function tilesForDrop(occupied: readonly boolean[], startAt: number, count: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < occupied.length && out.length < count; k++) {
    const i = (startAt + k) % occupied.length;
    if (!occupied[i]) out.push(i);
  }
  return out;
}

/** The error dialog of 002 §8 for a failed run: title and message keys. */
export interface ErrorDialogContent {
  titleKey: string;
  messageKey: string;
  values?: Record<string, string | number>;
}

/**
 * Maps a failure to the 002 §8 dialog. `code` is the vendor's (InvalidParameter.OversizeImage …), one
 * of ours (INSUFFICIENT_CREDITS …) or undefined; `message` the server's text.
 */
export function errorDialogFor(code: string | undefined, message: string | undefined): ErrorDialogContent {
  const msg = message ?? '';
  if (code === 'InvalidParameter.OversizeImage' || /oversize|10\s?MB/i.test(msg)) return { titleKey: 'imageEdit.dialog.oversizeTitle', messageKey: 'imageEdit.dialog.oversize' };
  if (code === 'InvalidParameter.AspectRatio') return { titleKey: 'imageEdit.dialog.aspectTitle', messageKey: 'imageEdit.dialog.aspect' };
  if (code?.startsWith('InvalidParameter')) return { titleKey: 'imageEdit.dialog.invalidTitle', messageKey: 'imageEdit.dialog.invalid' };
  if (code === 'InputImageSensitiveContentDetected' || code === 'OutputImageSensitiveContentDetected') return { titleKey: 'imageEdit.dialog.sensitiveTitle', messageKey: 'imageEdit.dialog.sensitive' };
  if (code === 'InternalServiceError') return { titleKey: 'imageEdit.dialog.serviceTitle', messageKey: 'imageEdit.dialog.service' };
  if (code === 'INSUFFICIENT_CREDITS') return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: INSUFFICIENT_CREDITS_KEY };
  if (code === 'NOT_CONFIGURED') return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.notConfigured' };
  if (code === 'IMAGE_EDIT_TOO_SMALL') return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.error.tooSmallServer' };
  if (code === 'IMAGE_EDIT_FILE_TOO_LARGE') return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.error.fileSize' };
  if (code === 'MASK_EMPTY') return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.error.maskEmpty' };
  if (code === 'PRESIGN_FAILED' || code === 'S3_PUT_FAILED' || code === 'CONFIRM_FAILED' || code === 'INVALID_BLOB') {
    return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.error.upload', values: { code } };
  }
  if (code === 'TIMEOUT') return { titleKey: 'imageEdit.dialog.timeoutTitle', messageKey: 'imageEdit.dialog.timeout' };
  if (code === 'AUTO_PROMPT_FAILED') return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.dialog.autoPromptBusy' };
  if (code === 'GenerationFailed' || (code && /^[A-Z][a-z]/.test(code))) {
    return { titleKey: 'imageEdit.dialog.failedTitle', messageKey: 'imageEdit.dialog.failed', values: { message: msg } };
  }
  return { titleKey: 'imageEdit.dialog.errorTitle', messageKey: 'imageEdit.dialog.error', values: { message: msg } };
}
