import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSendKey } from '../lib/chat-input-rules';

export interface ChatComposerProps {
  disabled: boolean;
  sending: boolean;
  costNote: string | null;
  onSend(text: string, image: File | null): Promise<boolean>;
  onStop(): void;
  /** Refuses a file that is not an image; returns false when refused. */
  onAttach(file: File): boolean;
}

/** The input (002 §2): Enter sends, Shift+Enter a new line; image attach with preview; stop while streaming. */
export function ChatComposer({ disabled, sending, costNote, onSend, onStop, onAttach }: ChatComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!image) return setPreview(null);
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const submit = async () => {
    if (sending || disabled) return;
    const sentText = text;
    const sentImage = image;
    // The box empties at once, so what is typed or attached while the answer streams is the next message.
    setText('');
    setImage(null);
    const ok = await onSend(sentText, sentImage);
    if (!ok) {
      // Nothing was stored: give the message back unless something new was typed meanwhile.
      setText((cur) => cur || sentText);
      setImage((cur) => cur ?? sentImage);
    }
  };

  return (
    <form
      className="chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {preview ? (
        <div className="chat-attachment" data-testid="chat-attachment">
          <img src={preview} alt={t('chat.attachedImage')} />
          <button type="button" className="ui-icon-button" onClick={() => setImage(null)} aria-label={t('chat.removeImage')}>
            ×
          </button>
        </div>
      ) : null}
      <div className="chat-input-row">
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          hidden
          data-testid="chat-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f && onAttach(f)) setImage(f);
          }}
        />
        <button type="button" className="chat-attach" onClick={() => fileRef.current?.click()} disabled={disabled || sending} aria-label={t('chat.attach')} title={t('chat.attach')} data-testid="chat-attach">
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <rect x="3" y="3" width="18" height="18" rx="3" />
            <circle cx="9" cy="9" r="2" />
            <path d="m21 15-5-5L5 21" />
          </svg>
        </button>
        <textarea
          className="chat-textarea"
          rows={2}
          value={text}
          disabled={disabled}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          data-testid="chat-input"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (isSendKey({ key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing, keyCode: e.keyCode })) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        {sending ? (
          <button type="button" className="btn btn-secondary chat-send" onClick={onStop} data-testid="chat-stop">
            {t('chat.stop')}
          </button>
        ) : (
          <button type="submit" className="btn btn-primary chat-send" disabled={disabled} data-testid="chat-send">
            {t('chat.send')}
          </button>
        )}
      </div>
      <p className="chat-hint">
        {t('chat.hint')}
        {costNote ? <span className="chat-cost" data-testid="chat-cost"> · {costNote}</span> : null}
      </p>
    </form>
  );
}
