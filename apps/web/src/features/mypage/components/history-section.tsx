import type { HistoryImage } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/icons';
import { Tabs } from '../../../components/ui/tabs';
import { formatSeoulDateTime } from '../../../lib/format';
import { useLocale } from '../../../lib/use-locale';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { DeleteHistoryDialog, DownloadButton, FullscreenCompare, deleteHistoryItems, useImageDownload } from '../../../shared/tool-job';
import { useMergedHistory } from '../hooks/use-merged-history';
import { groupHistoryByBatch } from '../lib/history-groups';
import { HISTORY_TABS, type HistoryTab } from '../lib/history-tabs';

/**
 * The history tabs of My Page (001 §2/§4/§7/§8): Retouch, Generate, Image Edit and Face Edit, each
 * listing completed items only, 25 first and 5 per "load more", with thumbnails (a broken one shows a
 * placeholder), the date in Asia/Seoul, download, and a fullscreen before/after viewer. A tab loads
 * when first opened. An empty tab says so and links to its own tool.
 */
export function HistorySection({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<HistoryTab['id']>('retouch');
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set(['retouch']));
  const select = (value: string) => {
    setTab(value as HistoryTab['id']);
    setOpened((prev) => (prev.has(value) ? prev : new Set([...prev, value])));
  };
  return (
    <section className="card mypage-card mypage-history" aria-labelledby="mypage-history-title" data-testid="mypage-history">
      <h2 id="mypage-history-title">{t('mypage.history.title')}</h2>
      <Tabs
        className="mypage-tabs"
        label={t('mypage.history.tabsLabel')}
        value={tab}
        onValueChange={select}
        items={HISTORY_TABS.map((h) => ({
          value: h.id,
          label: t(`mypage.history.tab.${h.id}`),
          testId: `mypage-history-tab-${h.id}`,
          content: <HistoryPanel tab={h} userId={userId} active={opened.has(h.id)} />,
        }))}
      />
    </section>
  );
}

function HistoryPanel({ tab, userId, active }: { tab: HistoryTab; userId: number; active: boolean }) {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const history = useMergedHistory(userId, tab.sources, active);
  const [viewing, setViewing] = useState<HistoryImage | null>(null);
  const viewer = useImageDownload();
  // Deleting (issue 28, point 12): one card's button, or a selection of cards deleted together.
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [confirming, setConfirming] = useState<number[] | null>(null);

  if (history.loading) {
    return (
      <div className="mypage-history-state" aria-busy="true" data-testid={`mypage-history-${tab.id}-loading`}>
        <div className="spinner" />
      </div>
    );
  }

  if (history.items.length === 0) {
    return (
      <div className="mypage-history-state mypage-history-empty" data-testid={`mypage-history-${tab.id}-empty`}>
        <p>{t(`mypage.history.empty.${tab.id}`)}</p>
        <Link className="btn btn-primary btn-sm" to={lp(tab.toolPath)} data-testid={`mypage-history-${tab.id}-start`}>
          {t(`mypage.history.startTool.${tab.id}`)}
        </Link>
      </div>
    );
  }

  const toolName = t(`mypage.history.tab.${tab.id}`);
  const selection: CardSelection = {
    selecting,
    isSelected: (item) => selected.has(item.id),
    toggle: (item) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (!next.delete(item.id)) next.add(item.id);
        return next;
      }),
    askDelete: (item) => setConfirming([item.id]),
  };
  const removeConfirmed = async () => {
    if (!confirming) return;
    try {
      const deleted = await deleteHistoryItems(confirming);
      history.remove(deleted);
      setSelected(new Set());
      setSelecting(false);
      notify.success(t(deleted.length === 1 ? 'toolJob.history.deletedOne' : 'toolJob.history.deletedMany', { count: deleted.length }));
    } catch (err) {
      notify.error(err instanceof ApiError && !err.isNetwork ? err.message : t('toolJob.history.deleteFailed'));
      throw err;
    }
  };
  return (
    <div data-testid={`mypage-history-${tab.id}`}>
      <div className="mypage-history-tools">
        {selecting ? (
          <>
            <button type="button" className="btn btn-danger btn-sm" disabled={selected.size === 0} onClick={() => setConfirming([...selected])} data-testid={`mypage-history-${tab.id}-delete-selected`}>
              {t('mypage.history.deleteSelected', { count: selected.size })}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                setSelecting(false);
                setSelected(new Set());
              }}
              data-testid={`mypage-history-${tab.id}-select-cancel`}
            >
              {t('common.cancel')}
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setSelecting(true)} data-testid={`mypage-history-${tab.id}-select`}>
            {t('mypage.history.select')}
          </button>
        )}
      </div>
      <ul className="mypage-history-grid">
        {groupHistoryByBatch(history.items).map((entry) =>
          entry.kind === 'single' ? (
            <HistoryCard key={entry.item.id} item={entry.item} toolName={toolName} onOpen={() => setViewing(entry.item)} selection={selection} />
          ) : (
            <BatchHistoryEntry key={entry.batchId} batchId={entry.batchId} items={entry.items} toolName={toolName} onOpen={setViewing} selection={selection} />
          ),
        )}
      </ul>
      <DeleteHistoryDialog open={confirming !== null} count={confirming?.length ?? 0} testIdPrefix="mypage-history" onOpenChange={(open) => (open ? undefined : setConfirming(null))} onConfirm={removeConfirmed} />
      {history.canLoadMore || history.loadingMore ? (
        <div className="mypage-more">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={history.loadMore}
            disabled={history.loadingMore}
            aria-busy={history.loadingMore}
            data-testid={`mypage-history-${tab.id}-more`}
          >
            {history.loadingMore ? t('mypage.history.loadingMore') : t('mypage.history.loadMore')}
          </button>
        </div>
      ) : null}
      {viewing?.image_url ? (
        <FullscreenCompare
          testIdPrefix="mypage-history"
          open
          onOpenChange={(open) => {
            if (!open) setViewing(null);
          }}
          title={t('mypage.history.viewerTitle', { date: formatSeoulDateTime(viewing.created_at, locale) })}
          before={viewing.original_image_url ?? viewing.image_url}
          after={viewing.image_url}
          afterAlt={t('mypage.history.resultAlt')}
          actions={
            <DownloadButton
              downloading={viewer.downloading}
              onDownload={() => {
                if (viewing.image_url) void viewer.download(viewing.image_url);
              }}
              testId="mypage-history-viewer-download"
            />
          }
        />
      ) : null}
    </div>
  );
}

/**
 * A batch's jobs as one history entry (issue 24): the newest result's thumbnail, "Batch · N photos" and
 * the date; expanding it lists its photos as ordinary cards; a link opens the batch page.
 */
function BatchHistoryEntry({ batchId, items, toolName, onOpen, selection }: { batchId: string; items: HistoryImage[]; toolName: string; onOpen: (item: HistoryImage) => void; selection: CardSelection }) {
  const { t } = useTranslation();
  const { lp, locale } = useLocale();
  const [open, setOpen] = useState(false);
  const first = items[0]!;
  const thumb = first.thumbnail_url ?? first.image_url;
  return (
    <li className={`mypage-history-batch${open ? ' is-open' : ''}`} data-testid="mypage-history-batch" data-batch-id={batchId}>
      <div className="mypage-history-batch-head">
        <button type="button" className="mypage-history-batch-toggle" aria-expanded={open} onClick={() => setOpen((v) => !v)} data-testid="mypage-history-batch-toggle">
          {thumb && !first.expired_at ? <img src={thumb} alt="" loading="lazy" decoding="async" className="mypage-history-batch-thumb" /> : null}
          <span className="mypage-history-batch-meta">
            <strong>{t('mypage.history.batch', { n: items.length })}</strong>
            <time dateTime={first.created_at}>{formatSeoulDateTime(first.created_at, locale)}</time>
          </span>
          <span className="mypage-history-batch-chevron" aria-hidden="true">
            {open ? '▴' : '▾'}
          </span>
        </button>
        <Link className="btn btn-ghost btn-sm" to={`${lp('/upscale/batch')}?id=${encodeURIComponent(batchId)}`}>
          {t('mypage.batches.open')}
        </Link>
      </div>
      {open ? (
        <ul className="mypage-history-grid mypage-history-batch-items">
          {items.map((item) => (
            <HistoryCard key={item.id} item={item} toolName={toolName} onOpen={() => onOpen(item)} selection={selection} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** How a card takes part in deleting: its own delete button, or a check box while cards are being selected. */
interface CardSelection {
  selecting: boolean;
  isSelected: (item: HistoryImage) => boolean;
  toggle: (item: HistoryImage) => void;
  askDelete: (item: HistoryImage) => void;
}

function HistoryCard({ item, toolName, onOpen, selection }: { item: HistoryImage; toolName: string; onOpen: () => void; selection: CardSelection }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { downloading, download } = useImageDownload();
  const [broken, setBroken] = useState(false);
  const thumb = item.thumbnail_url ?? item.image_url;
  const date = formatSeoulDateTime(item.created_at, locale);
  const unavailable = broken || !thumb || !item.image_url;
  return (
    <li className={`mypage-history-card${selection.isSelected(item) ? ' is-selected' : ''}`} data-testid="mypage-history-item" data-history-id={item.id} data-source={item.source}>
      {selection.selecting ? (
        <label className="mypage-history-check">
          <input type="checkbox" checked={selection.isSelected(item)} onChange={() => selection.toggle(item)} aria-label={t('mypage.history.selectItem', { item: t('mypage.history.itemLabel', { tool: toolName, date }) })} data-testid="mypage-history-check" />
        </label>
      ) : (
        <button type="button" className="history-delete" onClick={() => selection.askDelete(item)} aria-label={t('toolJob.history.deleteLabel', { date })} title={t('toolJob.history.delete')} data-testid="mypage-history-delete">
          <Icon name="trash" size={14} />
        </button>
      )}
      <button
        type="button"
        className="mypage-history-thumb"
        onClick={onOpen}
        disabled={unavailable}
        aria-label={`${t('mypage.history.view')}: ${t('mypage.history.itemLabel', { tool: toolName, date })}`}
        data-testid="mypage-history-open"
      >
        {item.expired_at ? (
          <span className="mypage-history-broken" data-testid="mypage-history-expired">
            <Icon name="warning" size={22} />
            {t('toolJob.history.expired')}
          </span>
        ) : unavailable ? (
          <span className="mypage-history-broken" data-testid="mypage-history-broken">
            <Icon name="warning" size={22} />
            {t('mypage.history.broken')}
          </span>
        ) : (
          <img src={thumb} alt="" loading="lazy" decoding="async" onError={() => setBroken(true)} />
        )}
      </button>
      <div className="mypage-history-meta">
        <time dateTime={item.created_at}>{date}</time>
        {item.image_url ? (
          <DownloadButton downloading={downloading} onDownload={() => void download(item.image_url!)} testId="mypage-history-download" className="btn btn-ghost btn-sm mypage-history-dl" />
        ) : null}
      </div>
    </li>
  );
}
