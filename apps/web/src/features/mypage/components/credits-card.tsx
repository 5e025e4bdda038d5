import type { User } from '@dewy/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DropIcon } from '../../../components/ui/drop-icon';
import { formatNumber } from '../../../lib/format';
import { useLocale } from '../../../lib/use-locale';

/**
 * Credits (001 §2, decision 013): the total the header shows, split into one-time, bonus and
 * subscription credits with when each expires, the spending order, and a way to buy more.
 */
export function CreditsCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const { locale, lp } = useLocale();
  const rows = [
    { id: 'one-time', label: t('mypage.credits.oneTime'), note: t('mypage.credits.oneTimeNote'), value: user.one_time_credits },
    { id: 'bonus', label: t('mypage.credits.bonus'), note: t('mypage.credits.bonusNote'), value: user.bonus_credits },
    { id: 'subscription', label: t('mypage.credits.subscription'), note: t('mypage.credits.subscriptionNote'), value: user.subscription_credits },
  ];
  return (
    <section className="card mypage-card mypage-credits" aria-labelledby="mypage-credits-title" data-testid="mypage-credits">
      <h2 id="mypage-credits-title">{t('mypage.credits.title')}</h2>
      <p className="mypage-total">
        <span className="mypage-total-label">{t('mypage.credits.total')}</span>
        <span className="mypage-total-value">
          <DropIcon />
          <strong data-testid="mypage-credits-total">{formatNumber(user.credits, locale)}</strong>
          <span className="mypage-total-unit">{t('mypage.credits.unit')}</span>
        </span>
      </p>
      <ul className="mypage-buckets">
        {rows.map((r) => (
          <li key={r.id} className={`mypage-bucket bucket-${r.id}`}>
            <span className="mypage-bucket-name">
              {r.label}
              <small>{r.note}</small>
            </span>
            <strong className="mypage-bucket-value" data-testid={`mypage-credits-${r.id}`}>
              {formatNumber(r.value, locale)}
            </strong>
          </li>
        ))}
      </ul>
      {user.credit_debt > 0 ? (
        <p className="mypage-debt" role="note" data-testid="mypage-credit-debt">
          {t('mypage.credits.debt', { count: user.credit_debt, amount: formatNumber(user.credit_debt, locale) })}
        </p>
      ) : null}
      <p className="mypage-note">{t('mypage.credits.order')}</p>
      <div className="mypage-card-foot">
        <Link className="btn btn-primary btn-sm" to={`${lp('/pricing')}?tab=credits`} data-testid="mypage-buy-credits">
          {t('mypage.credits.buy')}
        </Link>
      </div>
    </section>
  );
}
