import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DropIcon } from '../../../components/ui/drop-icon';
import { useLocale } from '../../../lib/use-locale';
import { INSUFFICIENT_CREDITS_KEY } from '../lib/tool-messages';

/** Props of {@link RunButton}. */
export interface RunButtonProps {
  /** Button label, and the label while the job runs. */
  label: ReactNode;
  processingLabel: ReactNode;
  /** Credits the run costs (null: not known yet, no badge). */
  cost: number | null;
  disabled: boolean;
  processing: boolean;
  onRun: () => void;
  /** The balance does not cover the cost: the insufficient-credits line shows, with a link to pricing. */
  insufficient: boolean;
  /** Test ids: `${testIdPrefix}-cost`, `${testIdPrefix}-insufficient`; the button's own id. */
  testIdPrefix: string;
  buttonTestId: string;
  className?: string;
}

/**
 * The paid tools' run button (retouch, face edit…): a spinner while the job runs, the cost badge in
 * credits, and the insufficient-credits line (the one shared message) with a link to pricing (001 §5/§8).
 */
export function RunButton(p: RunButtonProps) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  return (
    <>
      <button type="button" className={`btn btn-primary btn-lg btn-block ${p.className ?? ''}`} disabled={p.disabled} onClick={p.onRun} data-testid={p.buttonTestId}>
        {p.processing ? (
          <>
            <span className="spinner spinner-sm spinner-light" /> {p.processingLabel}
          </>
        ) : (
          <>
            {p.label}
            {p.cost !== null ? (
              <span className="generate-cost" data-testid={`${p.testIdPrefix}-cost`}>
                <DropIcon size={13} /> {p.cost}
              </span>
            ) : null}
          </>
        )}
      </button>
      {p.insufficient ? (
        <p className="generate-warning" role="status" data-testid={`${p.testIdPrefix}-insufficient`}>
          {t(INSUFFICIENT_CREDITS_KEY)} <Link to={lp('/pricing')}>{t('nav.pricing')} →</Link>
        </p>
      ) : null}
    </>
  );
}
