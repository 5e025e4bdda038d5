import type { SizeBadge } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DropIcon } from '../../../components/ui/drop-icon';
import { useLocale } from '../../../lib/use-locale';

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

const BADGE_CLASS: Record<SizeBadge, string> = { 'BEST!': 'badge-best', NORMAL: 'badge-normal', 'WORST!': 'badge-worst' };

/** Generate button with its cost and the balance; sticky at the bottom on narrow screens (001 §2). */
export function GenerateBar({ cost, balance, badge, outputSize, disabled, processing, insufficient, onGenerate }: GenerateBarProps) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  return (
    <div className="upscale-sticky-bar" data-testid="upscale-generate-bar">
      <div className="generate-info">
        {badge && outputSize ? (
          <span className="generate-size">
            <span className={`size-badge ${BADGE_CLASS[badge]}`} data-testid="upscale-size-badge">
              {badge}
            </span>
            <span className="generate-dims">
              {outputSize.width}×{outputSize.height}
            </span>
          </span>
        ) : null}
        <span className="generate-balance">
          {t('upscale.generate.balance')} <strong data-testid="upscale-balance">{balance.toLocaleString()}</strong>
        </span>
      </div>
      <button type="button" className="btn btn-primary btn-lg btn-block generate-btn" disabled={disabled} onClick={onGenerate} data-testid="upscale-generate">
        {processing ? (
          <>
            <span className="spinner spinner-sm spinner-light" /> {t('upscale.generate.processing')}
          </>
        ) : (
          <>
            {t('upscale.generate.button')}
            {cost !== null ? (
              <span className="generate-cost" data-testid="upscale-cost">
                <DropIcon size={13} /> {cost}
              </span>
            ) : null}
          </>
        )}
      </button>
      {insufficient ? (
        <p className="generate-warning" role="status" data-testid="upscale-insufficient">
          {t('upscale.error.insufficientCredits')} <Link to={lp('/pricing')}>{t('nav.pricing')} →</Link>
        </p>
      ) : null}
    </div>
  );
}
