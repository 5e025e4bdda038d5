import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadedImage } from '../hooks/use-image-upload';

export interface UploadAreaProps {
  image: UploadedImage | null;
  pendingPreview: string | null;
  uploading: boolean;
  disabled: boolean;
  onFile: (file: File) => void;
}

/** Drag-and-drop or click upload with a preview (001 §2). */
export function UploadArea({ image, pendingPreview, uploading, disabled, onFile }: UploadAreaProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const preview = pendingPreview ?? image?.previewUrl ?? null;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    const file = e.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <div
      className={`upload-area ${over ? 'is-over' : ''} ${preview ? 'has-preview' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="upload-area"
    >
      <input
        ref={input}
        type="file"
        accept=".jpg,.jpeg,.png,image/jpeg,image/png"
        className="visually-hidden"
        id="upscale-file"
        disabled={disabled}
        data-testid="upscale-file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
      {preview ? (
        <div className="upload-preview">
          <img src={preview} alt={t('upscale.upload.previewAlt')} data-testid="upload-preview" />
          <div className="upload-preview-meta">
            {uploading ? (
              <span className="upload-status">
                <span className="spinner spinner-sm" /> {t('upscale.upload.uploading')}
              </span>
            ) : image ? (
              <>
                <strong className="upload-name">{image.name}</strong>
                <span className="upload-dims" data-testid="upload-dimensions">
                  {image.width}×{image.height}px
                </span>
              </>
            ) : null}
            <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} onClick={() => input.current?.click()} data-testid="upload-change">
              {t('upscale.upload.change')}
            </button>
          </div>
        </div>
      ) : (
        <label htmlFor="upscale-file" className="upload-empty">
          <span className="upload-icon" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M12 16V4M6 10l6-6 6 6M4 20h16" />
            </svg>
          </span>
          <strong>{t('upscale.upload.title')}</strong>
          <span>{t('upscale.upload.hint')}</span>
          <span className="upload-formats">JPG · JPEG · PNG</span>
        </label>
      )}
    </div>
  );
}
