import { ETHNICITIES, FILTER_STRENGTH, FILTERS, GENDERS, SCALE_FACTOR, retouchOptionsFor } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { RangeSlider } from '../../../components/ui/range-slider';
import { Select } from '../../../components/ui/select';
import { Toggle } from '../../../components/ui/toggle';
import { notify } from '../../../lib/toast';
import type { UpscaleOptions } from '../lib/options';
import type { ScaleLimit } from '../lib/scale-limit';

export interface OptionsPanelProps {
  options: UpscaleOptions;
  /** The blocking rule for the loaded photo (null without a photo). */
  scaleLimit: ScaleLimit | null;
  onChange: (patch: Partial<UpscaleOptions>) => void;
}

const factor = (f: number) => f.toFixed(1);

/** Retouch controls of 001 §2/§5: gender, ethnicity, level, scale, filter, exclusions. */
export function OptionsPanel({ options, scaleLimit, onChange }: OptionsPanelProps) {
  const { t } = useTranslation();
  // The limit is explained before the click (the blocking dialog stays for the click itself).
  const scaleHint = !scaleLimit
    ? null
    : scaleLimit.blocked
      ? t('upscale.scaleLimit.blocked', { scale: factor(options.scale), width: scaleLimit.width, height: scaleLimit.height, sum: scaleLimit.width + scaleLimit.height, max: factor(scaleLimit.max) })
      : scaleLimit.limited
        ? t('upscale.scaleLimit.explain', { max: factor(scaleLimit.max) })
        : null;
  const levels = retouchOptionsFor(options.gender, options.ethnicity);
  const comingSoon = () => notify.info(t('upscale.toast.comingSoon'));

  return (
    <div className="upscale-options">
      <div className="upscale-options-grid">
        <Select
          id="opt-gender"
          label={t('upscale.options.gender')}
          value={options.gender}
          options={GENDERS.map((g) => ({ value: g, label: t(`upscale.gender.${g}`) }))}
          onChange={(gender) => onChange({ gender })}
          testId="upscale-gender"
        />
        <Select
          id="opt-ethnicity"
          label={t('upscale.options.ethnicity')}
          value={options.ethnicity}
          options={ETHNICITIES.map((e) => ({ value: e, label: t(`upscale.ethnicity.${e}`) }))}
          onChange={(ethnicity) => onChange({ ethnicity })}
          testId="upscale-ethnicity"
        />
      </div>
      <Select
        id="opt-level"
        label={t('upscale.options.level')}
        value={options.level}
        options={levels.map((l) => ({ value: l, label: t(`upscale.level.${l}`) }))}
        onChange={(level) => onChange({ level })}
        testId="upscale-level"
      />
      <RangeSlider
        label={t('upscale.options.scale')}
        value={options.scale}
        min={SCALE_FACTOR.min}
        max={SCALE_FACTOR.max}
        step={SCALE_FACTOR.step}
        display={`×${options.scale.toFixed(1)}`}
        valueText={scaleLimit?.blocked ? t('upscale.scaleLimit.valueBlocked', { scale: factor(options.scale) }) : `×${factor(options.scale)}`}
        limit={scaleLimit?.limited ? { value: scaleLimit.max, label: t('upscale.scaleLimit.marker', { max: factor(scaleLimit.max) }) } : null}
        hint={scaleHint}
        hintTone={scaleLimit?.blocked ? 'warn' : 'info'}
        onChange={(scale) => onChange({ scale })}
        testId="upscale-scale"
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
              onClick={() => onChange({ filter: f })}
              data-testid={`upscale-filter-${f}`}
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
        disabled={options.filter === 'none'}
        onChange={(strength) => onChange({ strength })}
        testId="upscale-strength"
      />
      <fieldset className="upscale-exclusions">
        <legend className="ui-field-label">{t('upscale.options.exclude')}</legend>
        <Toggle id="ex-lips" label={t('upscale.exclude.lips')} checked={options.excludeLips} onChange={(v) => onChange({ excludeLips: v })} testId="upscale-exclude-lips" />
        <Toggle id="ex-brows" label={t('upscale.exclude.eyebrows')} checked={options.excludeEyebrows} onChange={(v) => onChange({ excludeEyebrows: v })} testId="upscale-exclude-eyebrows" />
        <Toggle id="ex-nose" label={t('upscale.exclude.nose')} checked={options.excludeNose} onChange={(v) => onChange({ excludeNose: v })} testId="upscale-exclude-nose" />
        <Toggle id="ex-hair" label={t('upscale.exclude.hair')} checked={options.excludeHair} onChange={(v) => onChange({ excludeHair: v })} testId="upscale-exclude-hair" />
        <Toggle id="ex-bg" label={t('upscale.exclude.background')} badge={t('common.comingSoon')} checked={false} onChange={comingSoon} testId="upscale-exclude-background" />
        <Toggle id="ex-outfit" label={t('upscale.exclude.outfit')} badge={t('common.comingSoon')} checked={false} onChange={comingSoon} testId="upscale-exclude-outfit" />
      </fieldset>
    </div>
  );
}
