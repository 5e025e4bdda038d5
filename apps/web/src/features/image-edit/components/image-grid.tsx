import { IMAGE_EDIT } from '@dewy/contracts';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** One tile of the 8-tile grid (002 §3 Tile): the picked file, its preview, its upload. */
export interface Tile {
  name: string;
  /** Object URL of the picked file (released on removal). */
  previewUrl: string;
  width: number;
  height: number;
  /** The uploaded image's URL (the run's `images[i]`); null while uploading or after a failure. */
  url: string | null;
  uploading: boolean;
}

export interface ImageGridProps {
  tiles: readonly (Tile | null)[];
  disabled: boolean;
  /** Files dropped or picked, starting at tile `index` (a multi-file drop fills the next free tiles). */
  onFiles: (index: number, files: File[]) => void;
  onRemove: (index: number) => void;
  /** Opens the mask editor for image 1. */
  onMask: () => void;
  maskTint: string | null;
  maskSaved: boolean;
}

/** The 8-tile image grid with drag and drop and an Add Image button (002 §2, §5). */
export function ImageGrid({ tiles, disabled, onFiles, onRemove, onMask, maskTint, maskSaved }: ImageGridProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const target = useRef(0);
  const [over, setOver] = useState<number | null>(null);
  const firstFree = tiles.findIndex((x) => x === null);

  const pick = (index: number) => {
    if (disabled) return;
    target.current = index;
    input.current?.click();
  };
  const drop = (index: number, e: DragEvent) => {
    e.preventDefault();
    setOver(null);
    if (disabled) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length) onFiles(index, files);
  };

  return (
    <div className="image-edit-grid-wrap">
      <div className="image-edit-grid" data-testid="image-edit-grid">
        {tiles.map((tile, i) => (
          <div
            key={i}
            className={`image-edit-tile${tile ? ' has-image' : ''}${over === i ? ' is-over' : ''}`}
            data-testid={`image-edit-tile-${i}`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(i);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => drop(i, e)}
          >
            {tile ? (
              <>
                <img src={tile.previewUrl} alt={t('imageEdit.grid.imageAlt', { n: i + 1 })} />
                {i === 0 && maskTint ? <img className="image-edit-tile-mask" src={maskTint} alt="" data-testid="image-edit-mask-overlay" /> : null}
                <span className="image-edit-tile-n">{i + 1}</span>
                {tile.uploading ? <span className="image-edit-tile-status">{t('imageEdit.grid.uploading')}</span> : null}
                <button type="button" className="image-edit-tile-remove" aria-label={t('imageEdit.grid.remove', { n: i + 1 })} disabled={disabled} onClick={() => onRemove(i)} data-testid={`image-edit-tile-remove-${i}`}>
                  ×
                </button>
                {i === 0 ? (
                  <button type="button" className="btn btn-sm image-edit-tile-maskbtn" disabled={disabled || tile.uploading} onClick={onMask} data-testid="image-edit-mask-open">
                    {maskSaved ? t('imageEdit.mask.edit') : t('imageEdit.mask.open')}
                  </button>
                ) : null}
              </>
            ) : (
              <button type="button" className="image-edit-tile-empty" disabled={disabled} onClick={() => pick(i)} aria-label={t('imageEdit.grid.addAt', { n: i + 1 })}>
                <span aria-hidden="true">+</span>
                <small>{i + 1}</small>
              </button>
            )}
          </div>
        ))}
      </div>
      <div className="image-edit-grid-foot">
        <button type="button" className="btn btn-secondary btn-sm" disabled={disabled || firstFree < 0} onClick={() => pick(firstFree)} data-testid="image-edit-add">
          {t('imageEdit.grid.add')}
        </button>
        <span className="image-edit-hint">{t('imageEdit.grid.hint', { max: IMAGE_EDIT.maxImages })}</span>
      </div>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png"
        multiple
        hidden
        data-testid="image-edit-file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) onFiles(target.current < 0 ? 0 : target.current, files);
        }}
      />
    </div>
  );
}
