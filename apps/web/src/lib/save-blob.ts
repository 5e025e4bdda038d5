/** How long an object URL handed to a download link lives (001 §7: released after 2 s). */
export const OBJECT_URL_REVOKE_MS = 2000;

/** Save a blob as a file through a temporary download link; the object URL is released after 2 s. */
export function saveBlob(blob: Blob, filename: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = objectUrl;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(objectUrl), OBJECT_URL_REVOKE_MS);
}
