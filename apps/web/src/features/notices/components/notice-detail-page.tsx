import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { useSiteInfo } from '../../../lib/site-info';
import { useLocale } from '../../../lib/use-locale';
import { deleteNotice } from '../api/notices-api';
import { useInvalidateNotices, useNotice } from '../hooks/use-notices';
import { formatNoticeDateTime } from '../lib/dates';
import { noticeErrorText, parseNoticeId } from '../lib/errors';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { NoticeContent } from './notice-content';
import { PinMark } from './pin-mark';
import './notices.css';

/** Shown when the operator has not configured a company name (the author's default, 002 §2). */
const SERVICE_NAME = 'Dewy';

/**
 * A notice (spec 002 §2): title, author (default: the company name), date in Asia/Seoul, the HTML
 * content (sanitized by the server and again here), attachments opening in a new tab or 'none', edit
 * and delete (with the cannot-undo confirmation) for the administrator only, back to the list;
 * 'loading' while fetching and the error text on failure.
 */
export function NoticeDetailPage() {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const navigate = useNavigate();
  const params = useParams();
  const id = parseNoticeId(params.id);
  const { user } = useSession();
  const isAdmin = user?.isAdmin === true;
  const { company } = useSiteInfo();
  const query = useNotice(id);
  const invalidate = useInvalidateNotices();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const onDelete = async () => {
    if (id === null || deleting) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await deleteNotice(id);
      await invalidate();
      void navigate(lp('/notice'), { replace: true });
    } catch (err) {
      setDeleteError(noticeErrorText(err, t('notices.error.delete')));
      setDeleting(false);
    }
  };

  const back = (
    <Link className="btn btn-secondary" to={lp('/notice')} data-testid="notice-back">
      {t('notices.detail.back')}
    </Link>
  );

  if (id === null || query.isError) {
    return (
      <div className="container page notices-page" data-testid="notice-detail-page">
        <div className="notices-state card" role="alert" data-testid="notice-error">
          <p>{id === null ? t('notices.error.notFound') : noticeErrorText(query.error, t('notices.error.load'))}</p>
          {back}
        </div>
      </div>
    );
  }

  if (query.isPending) {
    return (
      <div className="container page notices-page" data-testid="notice-detail-page">
        <div className="notices-state card" aria-busy="true" data-testid="notice-loading">
          <div className="spinner" />
          <span>{t('notices.loading')}</span>
        </div>
      </div>
    );
  }

  const { notice, files } = query.data;
  const edited = notice.updated_at && Date.parse(notice.updated_at) - Date.parse(notice.created_at) > 60_000;

  return (
    <div className="container page notices-page" data-testid="notice-detail-page">
      <article className="card notice-article">
        <header className="notice-article-head">
          <h1 data-testid="notice-title">
            {notice.pinned ? <PinMark label={t('notices.pinned')} /> : null}
            {notice.title}
          </h1>
          <dl className="notice-meta">
            <div>
              <dt>{t('notices.col.author')}</dt>
              <dd data-testid="notice-author">{notice.author_name || company.name || SERVICE_NAME}</dd>
            </div>
            <div>
              <dt>{t('notices.col.date')}</dt>
              <dd>
                <time dateTime={notice.created_at} data-testid="notice-date">
                  {formatNoticeDateTime(notice.created_at, locale)}
                </time>
                {edited ? <span className="notice-edited"> · {t('notices.detail.edited', { date: formatNoticeDateTime(notice.updated_at, locale) })}</span> : null}
              </dd>
            </div>
          </dl>
        </header>

        <NoticeContent html={notice.content} />

        <section className="notice-files" aria-labelledby="notice-files-h">
          <h2 id="notice-files-h">{t('notices.detail.attachments')}</h2>
          {files.length === 0 ? (
            <p className="notice-files-none" data-testid="notice-files-none">
              {t('notices.detail.none')}
            </p>
          ) : (
            <ul data-testid="notice-files">
              {files.map((f) => (
                <li key={f.id}>
                  <a href={f.file_url} target="_blank" rel="noopener noreferrer" data-testid="notice-file">
                    {f.file_name}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      </article>

      <div className="notice-actions">
        {back}
        {isAdmin ? (
          <div className="notice-admin-actions">
            <Link className="btn btn-secondary" to={lp(`/notice/${notice.id}/edit`)} data-testid="notice-edit">
              {t('notices.detail.edit')}
            </Link>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setDeleteError(null);
                setConfirming(true);
              }}
              data-testid="notice-delete"
            >
              {t('notices.detail.delete')}
            </button>
          </div>
        ) : null}
      </div>

      <ConfirmDeleteDialog open={confirming} busy={deleting} error={deleteError} onCancel={() => setConfirming(false)} onConfirm={() => void onDelete()} />
    </div>
  );
}
