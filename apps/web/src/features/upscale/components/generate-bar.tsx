import type { SizeBadge } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { SizeBadgeChip } from '../../../shared/retouch-options';
import { RunButton } from '../../../shared/tool-job';

export interface GenerateBarProps {
  cost: number | null;
  balance: number;
  badge: SizeBadge | null;
  outputSize: { width: number; height: number } | null;
  disabled: boolean;
  processing: boolean;
  insufficient: boolean;
  onGenerate: () => void;
}

/** Generate button with its cost and the balance; sticky at the bottom on narrow screens (001 §2). */
export function GenerateBar({ cost, balance, badge, outputSize, disabled, processing, insufficient, onGenerate }: GenerateBarProps) {
  const { t } = useTranslation();
  return (
    <div className="upscale-sticky-bar" data-testid="upscale-generate-bar">
      <div className="generate-info">
        {badge && outputSize ? (
          <span className="generate-size">
            {/* The spec's words and thresholds (001 §2); a tooltip says what they mean (issue 17). Focusable,
                so a tap or the keyboard shows it too. */}
            <SizeBadgeChip badge={badge} sum={outputSize.width + outputSize.height} testId="upscale-size-badge" />
            <span className="generate-dims">
              {outputSize.width}×{outputSize.height}
            </span>
          </span>
        ) : null}
        <span className="generate-balance">
          {t('upscale.generate.balance')} <strong data-testid="upscale-balance">{balance.toLocaleString()}</strong>
        </span>
      </div>
      <RunButton
        label={t('upscale.generate.button')}
        processingLabel={t('upscale.generate.processing')}
        cost={cost}
        disabled={disabled}
        processing={processing}
        onRun={onGenerate}
        insufficient={insufficient}
        testIdPrefix="upscale"
        buttonTestId="upscale-generate"
        className="generate-btn"
      />
    </div>
  );
}
