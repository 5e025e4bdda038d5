import { ETHNICITIES, FILTER_STRENGTH, FILTERS, GENDERS, SCALE_FACTOR, retouchOptionsFor } from '@dewy/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RangeSlider } from '../../components/ui/range-slider';
import { Select } from '../../components/ui/select';
import { Toggle } from '../../components/ui/toggle';
import { notify } from '../../lib/toast';
import type { UpscaleOptions } from './options';
import './options.css';

export interface RetouchOptionsPanelProps {
  options: UpscaleOptions;
  onChange: (patch: Partial<UpscaleOptions>) => void;
  /** Prefix of the controls' ids and test ids (`upscale` → `upscale-gender`, `upscale-exclude-lips`…). */
  idPrefix: string;
  disabled?: boolean;
  /** What the scale slider says about the size rule for the caller's photo(s). */
  scale?: { valueText?: string; limit?: { value: number; label: string } | null; hint?: ReactNode; hintTone?: 'info' | 'warn' };
  /** Also list the exclusions that are not built yet (background, outfit), as the workspace does (001 §2). */
  comingSoon?: boolean;
  className?: string;
}

/**
 * The retouch controls of 001 §2/§5 — gender, ethnicity, level, scale, filter and strength, exclusions —
 * with the workspace's words (`upscale.*`), shared by the single-photo workspace and the batch page.
 */
export function RetouchOptionsPanel({ options, onChange, idPrefix, disabled = false, scale, comingSoon = false, className }: RetouchOptionsPanelProps) {
  const { t } = useTranslation();
  const levels = retouchOptionsFor(options.gender, options.ethnicity);
  const factor = `×${options.scale.toFixed(1)}`;
  const soon = () => notify.info(t('upscale.toast.comingSoon'));
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className={className ?? 'upscale-options'}>
      <div className="upscale-options-grid">
        <Select
          id={id('opt-gender')}
          label={t('upscale.options.gender')}
          value={options.gender}
          options={GENDERS.map((g) => ({ value: g, label: t(`upscale.gender.${g}`) }))}
          onChange={(gender) => onChange({ gender })}
          disabled={disabled}
          testId={id('gender')}
        />
        <Select
          id={id('opt-ethnicity')}
          label={t('upscale.options.ethnicity')}
          value={options.ethnicity}
          options={ETHNICITIES.map((e) => ({ value: e, label: t(`upscale.ethnicity.${e}`) }))}
          onChange={(ethnicity) => onChange({ ethnicity })}
          disabled={disabled}
          testId={id('ethnicity')}
        />
      </div>
      <Select
        id={id('opt-level')}
        label={t('upscale.options.level')}
        value={options.level}
        options={levels.map((l) => ({ value: l, label: t(`upscale.level.${l}`) }))}
        onChange={(level) => onChange({ level })}
        disabled={disabled}
        testId={id('level')}
      />
      <RangeSlider
        label={t('upscale.options.scale')}
        value={options.scale}
        min={SCALE_FACTOR.min}
        max={SCALE_FACTOR.max}
        step={SCALE_FACTOR.step}
        display={factor}
        valueText={scale?.valueText ?? factor}
        limit={scale?.limit ?? null}
        hint={scale?.hint ?? null}
        hintTone={scale?.hintTone ?? 'info'}
        disabled={disabled}
        onChange={(value) => onChange({ scale: value })}
        testId={id('scale')}
      />
      <div className="upscale-filter">
        <span className="ui-field-label">{t('upscale.options.filter')}</span>
        <div className="segmented" role="radiogroup" aria-label={t('upscale.options.filter')}>
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              role="radio"
              aria-checked={options.filter === f}
              className={options.filter === f ? 'is-active' : ''}
              disabled={disabled}
              onClick={() => onChange({ filter: f })}
              data-testid={id(`filter-${f}`)}
            >
              {t(`upscale.filter.${f}`)}
            </button>
          ))}
        </div>
      </div>
      <RangeSlider
        label={t('upscale.options.strength')}
        value={options.strength}
        min={FILTER_STRENGTH.min}
        max={FILTER_STRENGTH.max}
        step={FILTER_STRENGTH.step}
        display={options.strength.toFixed(2)}
        disabled={disabled || options.filter === 'none'}
        onChange={(strength) => onChange({ strength })}
        testId={id('strength')}
      />
      <fieldset className="upscale-exclusions" disabled={disabled}>
        <legend className="ui-field-label">{t('upscale.options.exclude')}</legend>
        <Toggle id={id('ex-lips')} label={t('upscale.exclude.lips')} checked={options.excludeLips} onChange={(v) => onChange({ excludeLips: v })} testId={id('exclude-lips')} />
        <Toggle id={id('ex-brows')} label={t('upscale.exclude.eyebrows')} checked={options.excludeEyebrows} onChange={(v) => onChange({ excludeEyebrows: v })} testId={id('exclude-eyebrows')} />
        <Toggle id={id('ex-nose')} label={t('upscale.exclude.nose')} checked={options.excludeNose} onChange={(v) => onChange({ excludeNose: v })} testId={id('exclude-nose')} />
        <Toggle id={id('ex-hair')} label={t('upscale.exclude.hair')} checked={options.excludeHair} onChange={(v) => onChange({ excludeHair: v })} testId={id('exclude-hair')} />
        {comingSoon ? (
          <>
            <Toggle id={id('ex-bg')} label={t('upscale.exclude.background')} badge={t('common.comingSoon')} checked={false} onChange={soon} testId={id('exclude-background')} />
            <Toggle id={id('ex-outfit')} label={t('upscale.exclude.outfit')} badge={t('common.comingSoon')} checked={false} onChange={soon} testId={id('exclude-outfit')} />
          </>
        ) : null}
      </fieldset>
    </div>
  );
}
