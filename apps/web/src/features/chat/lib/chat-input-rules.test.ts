import { describe, expect, it } from 'vitest';
import { attachBlocker, isSendKey, sendBlocker } from './chat-input-rules';

describe('chat input rules (002 §2, §5)', () => {
  it('needs a login, then a text or an image', () => {
    expect(sendBlocker({ loggedIn: false, text: 'hi', hasImage: false })).toBe('chat.error.loginRequired');
    expect(sendBlocker({ loggedIn: true, text: '  \n', hasImage: false })).toBe('chat.error.empty');
    expect(sendBlocker({ loggedIn: true, text: '', hasImage: true })).toBeNull();
    expect(sendBlocker({ loggedIn: true, text: 'hi', hasImage: false })).toBeNull();
  });
  it('accepts image/* files only', () => {
    expect(attachBlocker({ type: 'image/webp' })).toBeNull();
    expect(attachBlocker({ type: 'application/pdf' })).toBe('chat.error.notImage');
    expect(attachBlocker({ type: '' })).toBe('chat.error.notImage');
  });
  it('Enter sends; Shift+Enter and IME composition do not', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, keyCode: 229 })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });
});
