import type { CreditHistoryEntry } from '@dewy/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatSeoulDateTime, formatSignedNumber } from '../../../lib/format';
import { useLocale } from '../../../lib/use-locale';
import { useCreditHistory } from '../api/credit-history';
import { PagedHistory } from './paged-history';
import { ledgerLabel, type LedgerLabel, type LedgerTool } from '../lib/ledger-label';

/** The words of one label, with its plan, pack and tool names translated. */
function labelText(t: TFunction, label: LedgerLabel): string {
  const tool = (x: LedgerTool) => t(`mypage.ledger.tool.${x ?? 'other'}`);
  switch (label.key) {
    case 'pack':
    case 'reclaimPack':
      return t(`mypage.ledger.label.${label.key}`, { pack: t(`packs.${label.pack}`) });
    case 'planInitial':
    case 'planRenewal':
    case 'planPeriod':
      return t(`mypage.ledger.label.${label.key}`, { plan: t(`plans.${label.plan}`) });
    case 'upgrade':
      return t('mypage.ledger.label.upgrade', { from: t(`plans.${label.from}`), to: t(`plans.${label.to}`) });
    case 'spend':
    case 'refund':
      return t(`mypage.ledger.label.${label.key}`, { tool: tool(label.tool) });
    default:
      return t(`mypage.ledger.label.${label.key}`);
  }
}

/** The job a spend paid for or a refund returned: its short id and state. */
function jobText(t: TFunction, job: NonNullable<CreditHistoryEntry['job']>): string {
  const status = ['processing', 'completed', 'failed'].includes(job.status) ? t(`mypage.ledger.jobStatus.${job.status}`) : job.status;
  return t('mypage.ledger.job', { id: job.jobId.slice(0, 8), status });
}

/**
 * Credit history (issue 10, beyond the original): every ledger entry newest first, paged ("load
 * more"), each with its date in Asia/Seoul, what it was (purchase, period, spend with its job, refund,
 * expiry, reclaim, reward…), the bucket, the signed change and the balance right after it — the answer
 * to "where did my credits go".
 */
export function CreditHistory() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const history = useCreditHistory();
  const entries = history.data?.pages.flatMap((p) => p.items) ?? [];

  const body = (
    <PagedHistory
      query={history}
      count={entries.length}
      testId="mypage-ledger"
      text={{ failed: t('mypage.ledger.failed'), retry: t('mypage.ledger.retry'), empty: t('mypage.ledger.empty'), loadMore: t('mypage.ledger.loadMore'), loadingMore: t('mypage.ledger.loadingMore') }}
    >
      <table className="mypage-ledger" data-testid="mypage-ledger">
        <thead>
          <tr>
            <th scope="col">{t('mypage.ledger.date')}</th>
            <th scope="col">{t('mypage.ledger.description')}</th>
            <th scope="col">{t('mypage.ledger.bucket')}</th>
            <th scope="col" className="num">
              {t('mypage.ledger.change')}
            </th>
            <th scope="col" className="num">
              {t('mypage.ledger.balance')}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const label = ledgerLabel(e);
            return (
              <tr key={e.id} data-testid="mypage-ledger-row" data-kind={e.kind} data-label={label.key} data-bucket={e.bucket}>
                <td className="ledger-date">
                  <time dateTime={e.created_at}>{formatSeoulDateTime(e.created_at, locale)}</time>
                </td>
                <td className="ledger-what">
                  <span className="ledger-label" data-testid="mypage-ledger-label">
                    {labelText(t, label)}
                  </span>
                  {e.job ? <small className="ledger-job">{jobText(t, e.job)}</small> : null}
                </td>
                <td className="ledger-bucket">
                  <span className={`ledger-chip chip-${e.bucket}`}>{t(`mypage.ledger.bucketName.${e.bucket}`)}</span>
                </td>
                <td className={`num ledger-delta ${e.delta >= 0 ? 'is-plus' : 'is-minus'}`} data-testid="mypage-ledger-delta">
                  {formatSignedNumber(e.delta, locale)}
                </td>
                <td className="num ledger-balance" data-testid="mypage-ledger-balance">
                  <span className="ledger-balance-label">{t('mypage.ledger.balance')} </span>
                  {formatNumber(e.balance_after, locale)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </PagedHistory>
  );

  return (
    <section className="card mypage-card mypage-ledger-card" aria-labelledby="mypage-ledger-title" data-testid="mypage-credit-history">
      <h2 id="mypage-ledger-title">{t('mypage.ledger.title')}</h2>
      <p className="mypage-note">{t('mypage.ledger.lead')}</p>
      {body}
    </section>
  );
}
