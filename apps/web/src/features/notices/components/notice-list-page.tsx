import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { useNoticeList } from '../hooks/use-notices';
import { formatNoticeDay } from '../lib/dates';
import { noticeErrorText } from '../lib/errors';
import { noticeNumber, pagerState, parsePageParam } from '../lib/paging';
import { PinMark } from './pin-mark';
import './notices.css';

/**
 * The notice list (spec 002 §2): No / Title / Author / Date, pinned notices with a pin mark instead of
 * a number, 'No notices yet.' when empty, a pager kept in `?page=` with previous/next disabled at the
 * ends, and 'New' for the administrator only (the server's `isAdmin`).
 */
export function NoticeListPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const { user } = useSession();
  const isAdmin = user?.isAdmin === true;
  const [params, setParams] = useSearchParams();
  const page = parsePageParam(params.get('page'));
  const list = useNoticeList(page);
  const totalPages = list.data?.totalPages ?? 1;
  const pager = pagerState(page, totalPages);

  const goTo = (p: number) => {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (p <= 1) next.delete('page');
      else next.set('page', String(p));
      return next;
    });
    window.scrollTo({ top: 0 });
  };

  return (
    <div className="container page notices-page" data-testid="notice-list-page">
      <header className="notices-head">
        <div>
          <h1>{t('notices.title')}</h1>
          <p className="notices-lead">{t('notices.lead')}</p>
        </div>
        {isAdmin ? (
          <Link className="btn btn-primary" to={lp('/notice/write')} data-testid="notice-new">
            {t('notices.new')}
          </Link>
        ) : null}
      </header>

      {list.isPending ? (
        <div className="notices-state card" aria-busy="true" data-testid="notice-loading">
          <div className="spinner" />
          <span>{t('notices.loading')}</span>
        </div>
      ) : list.isError ? (
        <div className="notices-state card" role="alert" data-testid="notice-error">
          <p>{noticeErrorText(list.error, t('notices.error.load'))}</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void list.refetch()}>
            {t('notices.retry')}
          </button>
        </div>
      ) : list.data.items.length === 0 ? (
        <div className="notices-state card" data-testid="notice-empty">
          <p>{t('notices.empty')}</p>
        </div>
      ) : (
        <div className="card notices-table-card">
          <table className="notices-table" data-testid="notice-table">
            <thead>
              <tr>
                <th scope="col" className="col-no">{t('notices.col.no')}</th>
                <th scope="col" className="col-title">{t('notices.col.title')}</th>
                <th scope="col" className="col-author">{t('notices.col.author')}</th>
                <th scope="col" className="col-date">{t('notices.col.date')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((n, i) => {
                const no = noticeNumber(page, i, n.pinned);
                return (
                  <tr key={n.id} className={n.pinned ? 'is-pinned' : undefined} data-testid="notice-row">
                    <td className="col-no">{no === null ? <PinMark label={t('notices.pinned')} /> : no}</td>
                    <td className="col-title">
                      <Link to={lp(`/notice/${n.id}`)} data-testid="notice-link">
                        {n.title}
                      </Link>
                    </td>
                    <td className="col-author">{n.author_name || t('notices.defaultAuthor')}</td>
                    <td className="col-date">
                      <time dateTime={n.created_at}>{formatNoticeDay(n.created_at)}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <nav className="notices-pager" aria-label={t('notices.pager.label')} data-testid="notice-pager">
        <button type="button" className="btn btn-secondary btn-sm" disabled={pager.prev === null} onClick={() => pager.prev && goTo(pager.prev)} data-testid="notice-prev">
          {t('notices.pager.prev')}
        </button>
        <ol className="notices-pages">
          {pager.pages.map((p) => (
            <li key={p}>
              <button
                type="button"
                className={`notices-page-btn${p === page ? ' is-current' : ''}`}
                aria-current={p === page ? 'page' : undefined}
                aria-label={t('notices.pager.page', { n: p })}
                onClick={() => p !== page && goTo(p)}
              >
                {p}
              </button>
            </li>
          ))}
        </ol>
        <button type="button" className="btn btn-secondary btn-sm" disabled={pager.next === null} onClick={() => pager.next && goTo(pager.next)} data-testid="notice-next">
          {t('notices.pager.next')}
        </button>
      </nav>
    </div>
  );
}
