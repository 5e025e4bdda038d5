import type { PresignDownloadResponse } from '@dewy/contracts';
import { api, ApiError, apiUrl } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

const RETRIES = 2;
const RETRY_DELAY_MS = 1000;

const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

/**
 * POST /api/image/ensure-cloudfront-cookies, sent when a workspace loads for a signed-in user (001 §7).
 * The server sets nothing (image URLs carry their own signature; decision 043); a failure is ignored.
 */
export function ensureImageCookies(): Promise<void> {
  return api.post('/api/image/ensure-cloudfront-cookies').then(
    () => undefined,
    () => undefined,
  );
}

/** POST /api/image/presign-download; a 403 is retried up to 2 times, 1 s apart (001 §9). */
async function presignDownload(url: string): Promise<PresignDownloadResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.post('/api/image/presign-download', { body: { url } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 403 && attempt < RETRIES) {
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      throw err;
    }
  }
}

async function fetchBlob(url: string, credentials: RequestCredentials): Promise<Blob> {
  const res = await fetch(url, { credentials, cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  if (blob.size === 0) throw new Error('empty download');
  return blob;
}

function nameFromUrl(url: string): string {
  try {
    const last = new URL(url, window.location.href).pathname.split('/').pop();
    if (last && /\.(jpe?g|png|webp)$/i.test(last)) return last;
  } catch {
    // fall through
  }
  return `dewy-${Date.now()}.jpg`;
}

/**
 * Download an image (001 §7): presigned download → the server proxy → a direct fetch; when all fail the
 * image opens in a new tab. Resolves false when even the new tab could not open, or when the browser
 * is offline (a new tab could load nothing; the page says the network is down instead).
 */
export async function downloadImage(url: string): Promise<boolean> {
  try {
    const { downloadUrl, filename } = await presignDownload(url);
    saveBlob(await fetchBlob(downloadUrl, 'same-origin'), filename || nameFromUrl(url));
    return true;
  } catch (err) {
    console.warn('[download] presigned download failed', err);
  }
  try {
    saveBlob(await fetchBlob(apiUrl('get', '/api/image/download', { query: { url } }), 'include'), nameFromUrl(url));
    return true;
  } catch (err) {
    console.warn('[download] proxy download failed', err);
  }
  try {
    saveBlob(await fetchBlob(url, 'same-origin'), nameFromUrl(url));
    return true;
  } catch (err) {
    console.warn('[download] direct download failed', err);
  }
  if (!navigator.onLine) return false;
  const win = window.open(url, '_blank');
  if (win) win.opener = null;
  return win !== null;
}
