/**
 * Copies text to the clipboard: the asynchronous Clipboard API first, then the older selection copy
 * (`execCommand('copy')` on a hidden field) for browsers or contexts that refuse the first.
 * @returns false when neither worked (the caller shows 'link copy failed', 001 §8)
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection copy
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  field.style.pointerEvents = 'none';
  document.body.appendChild(field);
  try {
    field.select();
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
  }
}
