import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadedImage } from '../hooks/use-image-upload';
import './tool-job.css';

export interface UploadAreaProps {
  /** The file input is `<prefix>-file-input`; the rest keep their shared ids (upload-area, upload-preview…). */
  testIdPrefix: string;
  /** The tool's hint under the title (recommended size, resizing). */
  hint: string;
  /** The file input's accept list. */
  accept?: string;
  image: UploadedImage | null;
  pendingPreview: string | null;
  uploading: boolean;
  disabled: boolean;
  onFile: (file: File) => void;
}

/** Drag-and-drop or click upload with a preview (001 §2). */
export function UploadArea({ testIdPrefix, hint, accept = '.jpg,.jpeg,.png,image/jpeg,image/png', image, pendingPreview, uploading, disabled, onFile }: UploadAreaProps) {
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
        accept={accept}
        className="visually-hidden"
        id={`${testIdPrefix}-file`}
        disabled={disabled}
        data-testid={`${testIdPrefix}-file-input`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
      {preview ? (
        <div className="upload-preview">
          <img src={preview} alt={t('toolJob.upload.previewAlt')} data-testid="upload-preview" />
          <div className="upload-preview-meta">
            {uploading ? (
              <span className="upload-status">
                <span className="spinner spinner-sm" /> {t('toolJob.upload.uploading')}
              </span>
            ) : image ? (
              <>
                <strong className="upload-name" title={image.name}>
                  {image.restored ? t('toolJob.upload.fromHistory') : image.name}
                </strong>
                <span className="upload-dims" data-testid="upload-dimensions">
                  {image.width}×{image.height}px
                </span>
              </>
            ) : null}
            <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} onClick={() => input.current?.click()} data-testid="upload-change">
              {t('toolJob.upload.change')}
            </button>
          </div>
        </div>
      ) : (
        <label htmlFor={`${testIdPrefix}-file`} className="upload-empty">
          <span className="upload-icon" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M12 16V4M6 10l6-6 6 6M4 20h16" />
            </svg>
          </span>
          <strong>{t('toolJob.upload.title')}</strong>
          <span>{hint}</span>
          <span className="upload-formats">JPG · JPEG · PNG</span>
        </label>
      )}
    </div>
  );
}
