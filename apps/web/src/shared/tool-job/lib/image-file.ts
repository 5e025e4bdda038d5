import { UPLOAD_RESIZE_JPEG_QUALITY } from '@dewy/contracts';

const ACCEPTED_EXTENSIONS = ['jpg', 'jpeg', 'png'];

/** Only jpg, jpeg and png by extension (001 §5). */
export function isAcceptedImageName(name: string): boolean {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  return name.includes('.') && ACCEPTED_EXTENSIONS.includes(ext);
}

const ACCEPTED_TYPES = ['image/jpeg', 'image/png'];

/** Only image/jpeg and image/png by MIME type (001 §5, face edit); a file without a type is refused. */
export function isAcceptedImageType(type: string): boolean {
  return ACCEPTED_TYPES.includes(type.toLowerCase());
}

/** Natural size of an image URL. */
export function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image decode failed'));
    img.src = url;
  });
}

/**
 * Draw the image at the target size on a canvas and encode it as JPEG (001 §5).
 * @param quality JPEG quality: 0.9 for retouch uploads (default), 0.92 for face edit
 */
export async function resizeToJpeg(img: HTMLImageElement, target: { width: number; height: number }, quality: number = UPLOAD_RESIZE_JPEG_QUALITY): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = target.width;
  canvas.height = target.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas unavailable');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, target.width, target.height);
  ctx.drawImage(img, 0, 0, target.width, target.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))), 'image/jpeg', quality);
  });
}

/** `photo.png` → `photo.jpg`. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^.]+$/, '') || 'image';
  return `${base}.jpg`;
}

/**
 * A display name for a stored image from its URL: the storage key's last segment (our local signed
 * URLs carry it as `?key=`), else the path's last segment.
 */
export function nameFromImageUrl(url: string): string {
  try {
    const u = new URL(url, 'http://localhost');
    const last = (u.searchParams.get('key') ?? u.pathname).split('/').pop();
    if (last) return last;
  } catch {
    // fall through
  }
  return 'image.jpg';
}
