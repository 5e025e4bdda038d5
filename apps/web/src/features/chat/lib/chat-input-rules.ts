/**
 * The chat's send rules as the page applies them (spec 002 §5, §8); the server enforces the same
 * (AI_EMPTY_MESSAGE, the upload checks, the login). Returns the i18n key of the message to show, or null.
 */
export function sendBlocker(p: { loggedIn: boolean; text: string; hasImage: boolean }): string | null {
  if (!p.loggedIn) return 'chat.error.loginRequired';
  if (!p.text.trim() && !p.hasImage) return 'chat.error.empty';
  return null;
}

/** Only image files may be attached (002 §5: an image/* type). @returns the i18n key of the refusal, or null. */
export function attachBlocker(file: { type: string }): string | null {
  return file.type.startsWith('image/') ? null : 'chat.error.notImage';
}

/**
 * Enter sends, Shift+Enter makes a new line (002 §2). Enter while an input method is composing (Korean
 * syllables) finishes the syllable and does not send.
 */
export function isSendKey(e: { key: string; shiftKey: boolean; isComposing?: boolean; keyCode?: number }): boolean {
  return e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229;
}
