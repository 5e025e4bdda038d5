import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { useLocale } from '../../../lib/use-locale';
import { AffiliateLinkBox, useAffiliateEnabled } from '../../../shared/affiliate';
import { useAffiliateStats } from '../api/affiliate-stats';

/**
 * The sharer's corner (001 §1/§2/§7/§9): the reward sentence, the share link with its copy box, and
 * what the link has brought — visits, sign-ups, purchases and the bonus credits earned. Renders
 * nothing unless the server reports the programme enabled.
 */
export function AffiliateCard() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const enabled = useAffiliateEnabled();
  const stats = useAffiliateStats(enabled);
  if (!enabled) return null;
  const s = stats.data;
  const figures = [
    { id: 'clicks', label: t('mypage.affiliate.clicks'), value: s?.clicks },
    { id: 'signups', label: t('mypage.affiliate.signups'), value: s?.signups },
    { id: 'paid-orders', label: t('mypage.affiliate.paidOrders'), value: s?.paidOrders },
    { id: 'reward', label: t('mypage.affiliate.rewardCredits'), value: s?.rewardCredits },
  ];
  return (
    <section className="card mypage-card mypage-affiliate" aria-labelledby="mypage-affiliate-title" data-testid="mypage-affiliate">
      <div className="mypage-affiliate-main">
        <h2 id="mypage-affiliate-title">{t('mypage.affiliate.title')}</h2>
        <p className="mypage-affiliate-reward" data-testid="mypage-affiliate-sentence">
          {t('affiliate.reward')}
        </p>
        <AffiliateLinkBox testIdPrefix="mypage-affiliate" active={enabled} />
      </div>
      <div className="mypage-affiliate-stats">
        <h3>{t('mypage.affiliate.stats')}</h3>
        {stats.isError ? (
          <p className="mypage-muted">{t('mypage.affiliate.statsFailed')}</p>
        ) : (
          <dl className="mypage-stat-grid">
            {figures.map((f) => (
              <div key={f.id} className={`mypage-stat stat-${f.id}`}>
                <dt>{f.label}</dt>
                <dd data-testid={`mypage-affiliate-${f.id}`}>{f.value === undefined ? '–' : formatNumber(f.value, locale)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </section>
  );
}
