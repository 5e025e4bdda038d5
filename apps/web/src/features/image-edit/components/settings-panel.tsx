import { IMAGE_EDIT, IMAGE_EDIT_PRESETS, clampImageEditSide, type ImageEditPreset } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { RangeSlider } from '../../../components/ui/range-slider';
import { presetOf } from '../lib/rules';

export interface EditSettings {
  width: number;
  height: number;
  /** Scale slider value (-2..2); the size sent is side × 2^scale. */
  scale: number;
  numImages: number;
  maxImages: number;
  /** The seed box's text (a number 1..100000). */
  seed: string;
}

export interface SettingsPanelProps {
  open: boolean;
  onToggle: () => void;
  value: EditSettings;
  onChange: (next: EditSettings) => void;
  /** The size that will be sent (after the scale). */
  effective: { width: number; height: number };
  canMatchFirst: boolean;
  onMatchFirst: () => void;
  onRandomSeed: () => void;
  disabled: boolean;
}

const COUNTS = [1, 2, 3, 4] as const;

/** A count of images, 1–4 (002 §5: Num images, Max images). */
function CountSelect({ label, value, disabled, onChange, testId }: { label: string; value: number; disabled: boolean; onChange: (v: number) => void; testId: string }) {
  return (
    <label>
      <span>{label}</span>
      <select value={value} disabled={disabled} onChange={(e) => onChange(Number(e.target.value))} data-testid={testId}>
        {COUNTS.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One side of the size (px), clamped to 1..4096 as it is typed (002 §5). */
function SideInput({ side, label, value, disabled, onChange }: { side: 'width' | 'height'; label: string; value: number; disabled: boolean; onChange: (v: number) => void }) {
  return (
    <label>
      <span>{label}</span>
      <input
        type="number"
        min={IMAGE_EDIT.side.min}
        max={IMAGE_EDIT.side.max}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(clampImageEditSide(Number(e.target.value)))}
        data-testid={`image-edit-${side}`}
      />
    </label>
  );
}

/** Collapsible Additional Settings (002 §2, §5): presets, width/height, match-first-image, scale, counts, seed. */
export function SettingsPanel({ open, onToggle, value, onChange, effective, canMatchFirst, onMatchFirst, onRandomSeed, disabled }: SettingsPanelProps) {
  const { t } = useTranslation();
  const set = (patch: Partial<EditSettings>) => onChange({ ...value, ...patch });
  const active = presetOf(value.width, value.height);
  return (
    <section className="image-edit-settings">
      <button type="button" className="image-edit-settings-toggle" aria-expanded={open} onClick={onToggle} data-testid="image-edit-settings-toggle">
        <span>{t('imageEdit.settings.title')}</span>
        <span aria-hidden="true">{open ? '−' : '+'}</span>
      </button>
      {open ? (
        <div className="image-edit-settings-body" data-testid="image-edit-settings">
          <div className="image-edit-presets" role="group" aria-label={t('imageEdit.settings.presets')}>
            {(Object.keys(IMAGE_EDIT_PRESETS) as ImageEditPreset[]).map((p) => (
              <button
                key={p}
                type="button"
                className={`chip${active === p ? ' is-active' : ''}`}
                aria-pressed={active === p}
                disabled={disabled}
                onClick={() => set({ width: IMAGE_EDIT_PRESETS[p][0], height: IMAGE_EDIT_PRESETS[p][1] })}
                data-testid={`image-edit-preset-${p.replace(':', 'x')}`}
              >
                {p}
              </button>
            ))}
          </div>
          <div className="image-edit-size-row">
            <SideInput side="width" label={t('imageEdit.settings.width')} value={value.width} disabled={disabled} onChange={(width) => set({ width })} />
            <span aria-hidden="true">×</span>
            <SideInput side="height" label={t('imageEdit.settings.height')} value={value.height} disabled={disabled} onChange={(height) => set({ height })} />
            <button type="button" className="btn btn-secondary btn-sm" disabled={disabled || !canMatchFirst} onClick={onMatchFirst} data-testid="image-edit-match-first">
              {t('imageEdit.settings.matchFirst')}
            </button>
          </div>
          <RangeSlider
            label={t('imageEdit.settings.scale')}
            value={value.scale}
            min={IMAGE_EDIT.scale.min}
            max={IMAGE_EDIT.scale.max}
            step={IMAGE_EDIT.scale.step}
            onChange={(v) => set({ scale: Math.round(v / IMAGE_EDIT.scale.step) * IMAGE_EDIT.scale.step })}
            display={`×${(2 ** value.scale).toFixed(2)} → ${effective.width}×${effective.height}`}
            disabled={disabled}
            testId="image-edit-scale"
          />
          <div className="image-edit-count-row">
            <CountSelect label={t('imageEdit.settings.numImages')} value={value.numImages} disabled={disabled} onChange={(numImages) => set({ numImages })} testId="image-edit-num-images" />
            <CountSelect label={t('imageEdit.settings.maxImages')} value={value.maxImages} disabled={disabled} onChange={(maxImages) => set({ maxImages })} testId="image-edit-max-images" />
            <label className="image-edit-seed">
              <span>{t('imageEdit.settings.seed')}</span>
              <span className="image-edit-seed-row">
                <input
                  type="number"
                  min={IMAGE_EDIT.seed.min}
                  max={IMAGE_EDIT.seed.max}
                  value={value.seed}
                  disabled={disabled}
                  onChange={(e) => set({ seed: e.target.value })}
                  data-testid="image-edit-seed"
                />
                <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} onClick={onRandomSeed} data-testid="image-edit-seed-random">
                  {t('imageEdit.settings.random')}
                </button>
              </span>
            </label>
          </div>
        </div>
      ) : null}
    </section>
  );
}
