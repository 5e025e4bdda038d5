import { useTranslation } from 'react-i18next';
import { RetouchOptionsPanel, type UpscaleOptions } from '../../../shared/retouch-options';
import type { ScaleLimit } from '../lib/scale-limit';

export interface OptionsPanelProps {
  options: UpscaleOptions;
  /** The blocking rule for the loaded photo (null without a photo). */
  scaleLimit: ScaleLimit | null;
  onChange: (patch: Partial<UpscaleOptions>) => void;
}

const factor = (f: number) => f.toFixed(1);

/**
 * The workspace's retouch controls (001 §2/§5, shared/retouch-options) with what the scale slider says
 * about the loaded photo: the limit marker, and the rule explained before the click (the blocking dialog
 * stays for the click itself).
 */
export function OptionsPanel({ options, scaleLimit, onChange }: OptionsPanelProps) {
  const { t } = useTranslation();
  const hint = !scaleLimit
    ? null
    : scaleLimit.blocked
      ? t('upscale.scaleLimit.blocked', { scale: factor(options.scale), width: scaleLimit.width, height: scaleLimit.height, sum: scaleLimit.width + scaleLimit.height, max: factor(scaleLimit.max) })
      : scaleLimit.limited
        ? t('upscale.scaleLimit.explain', { max: factor(scaleLimit.max) })
        : null;
  return (
    <RetouchOptionsPanel
      options={options}
      onChange={onChange}
      idPrefix="upscale"
      comingSoon
      scale={{
        valueText: scaleLimit?.blocked ? t('upscale.scaleLimit.valueBlocked', { scale: factor(options.scale) }) : undefined,
        limit: scaleLimit?.limited ? { value: scaleLimit.max, label: t('upscale.scaleLimit.marker', { max: factor(scaleLimit.max) }) } : null,
        hint,
        hintTone: scaleLimit?.blocked ? 'warn' : 'info',
      }}
    />
  );
}
