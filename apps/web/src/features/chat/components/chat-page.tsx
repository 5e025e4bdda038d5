import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { ChatThread } from '@dewy/contracts';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { deleteThread } from '../api/chat-api';
import { attachBlocker, sendBlocker } from '../lib/chat-input-rules';
import { useChargeEnabled, useConversation, useThreads } from '../lib/use-chat';
import { ChatComposer } from './chat-composer';
import { MessageList } from './message-list';
import { ThreadSidebar } from './thread-sidebar';
import './chat.css';

/** The server's message for a failed call (already in the user's language), else the catalogue fallback. */
function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.code && err.code !== 'NETWORK' && err.serverError ? err.serverError : fallback;
}

/**
 * The prompt chat (spec 002 §2–§9, issue 15): thread sidebar, messages, input. The open thread is kept in
 * `?thread=` so a reload shows it again. At ≤ 1000 px the sidebar becomes a drawer.
 */
export function ChatPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const { user, forceSync } = useSession();
  const loggedIn = Boolean(user);
  const [params, setParams] = useSearchParams();
  const threadId = params.get('thread');
  const [drawer, setDrawer] = useState(false);
  const [toDelete, setToDelete] = useState<ChatThread | null>(null);
  const [deleting, setDeleting] = useState(false);

  const charge = useChargeEnabled(loggedIn);
  const threadsQ = useThreads(loggedIn);
  const conv = useConversation(loggedIn ? threadId : null);
  const threads = threadsQ.data?.pages.flatMap((p) => p.threads) ?? [];
  const notConfigured = charge.data?.configured === false;

  const openThread = (id: string | null) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('thread', id);
        else next.delete('thread');
        return next;
      },
      { replace: false },
    );
    setDrawer(false);
  };

  const onSend = async (text: string, image: File | null): Promise<boolean> => {
    const blocked = sendBlocker({ loggedIn, text, hasImage: Boolean(image) });
    if (blocked) {
      notify.error(t(blocked));
      return false;
    }
    const r = await conv.send(text, image);
    if (r.threadId && r.threadId !== threadId) openThread(r.threadId);
    if (r.error) notify.error(errorText(r.error, t('chat.error.send')));
    void forceSync();
    return r.ok || Boolean(r.stopped) || Boolean(r.threadId);
  };

  const onAttach = (file: File) => {
    const blocked = attachBlocker(file);
    if (blocked) notify.error(t(blocked));
    return !blocked;
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteThread(toDelete.id);
      if (toDelete.id === threadId) openThread(null);
      await threadsQ.refetch();
      setToDelete(null);
    } catch {
      notify.error(t('chat.error.delete'));
    } finally {
      setDeleting(false);
    }
  };

  const costNote = charge.data ? (charge.data.enabled ? t('chat.cost', { n: charge.data.cost }) : t('chat.free')) : null;
  const active = threads.find((th) => th.id === threadId);

  return (
    <div className="chat-page" data-testid="chat-page">
      <aside className={`chat-sidebar ${drawer ? 'is-open' : ''}`}>
        <ThreadSidebar
          threads={threads}
          activeId={threadId}
          loading={threadsQ.isLoading}
          loggedIn={loggedIn}
          hasMore={Boolean(threadsQ.hasNextPage)}
          loadingMore={threadsQ.isFetchingNextPage}
          onSelect={openThread}
          onNew={() => openThread(null)}
          onDelete={setToDelete}
          onLoadMore={() => void threadsQ.fetchNextPage()}
        />
      </aside>
      {drawer ? <button type="button" className="chat-scrim" aria-label={t('common.close')} onClick={() => setDrawer(false)} /> : null}
      <section className="chat-main">
        <header className="chat-head">
          <button type="button" className="btn btn-secondary chat-drawer-btn" onClick={() => setDrawer(true)} data-testid="chat-drawer">
            {t('chat.threads')}
          </button>
          <h1 className="chat-title">{active ? active.title || t('chat.untitled') : t('pages.chat')}</h1>
        </header>
        {notConfigured ? (
          <p className="chat-banner" role="status" data-testid="chat-not-configured">
            {t('chat.notConfigured')}
          </p>
        ) : null}
        <MessageList
          messages={conv.messages}
          hasMore={conv.hasMore}
          loading={conv.loading}
          onLoadEarlier={() => void conv.loadEarlier().catch(() => notify.error(t('chat.error.load')))}
          empty={
            <div className="chat-empty">
              <h2>{t('chat.emptyTitle')}</h2>
              <p>{t('chat.emptyBody')}</p>
              {!loggedIn ? (
                <Link className="btn btn-primary" to={lp('/login')}>
                  {t('nav.login')}
                </Link>
              ) : null}
            </div>
          }
        />
        {conv.loadError ? <p className="chat-banner chat-banner-error">{errorText(conv.loadError, t('chat.error.load'))}</p> : null}
        <ChatComposer disabled={notConfigured} sending={conv.sending} costNote={costNote} onSend={onSend} onStop={conv.stop} onAttach={onAttach} />
      </section>
      <Dialog
        open={toDelete !== null}
        onOpenChange={(o) => !o && !deleting && setToDelete(null)}
        title={t('chat.delete.title')}
        description={t('chat.delete.body', { title: toDelete?.title || t('chat.untitled') })}
        testId="chat-delete-dialog"
        closeLabel={t('common.close')}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setToDelete(null)} disabled={deleting}>
              {t('chat.delete.cancel')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void confirmDelete()} disabled={deleting} data-testid="chat-delete-confirm">
              {t('chat.delete.confirm')}
            </button>
          </>
        }
      />
    </div>
  );
}
