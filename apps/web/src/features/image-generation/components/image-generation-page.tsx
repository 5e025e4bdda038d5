import { DEFAULT_CREDITS_DISPLAY, HISTORY_CLICK_DEBOUNCE_MS, IMAGE_GENERATION, hasBannedKeyword, imageGenerationCost, type GenerationAspectRatio } from '@dewy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Tabs } from '../../../components/ui/tabs';
import { fetchFeatureFlags } from '../../../lib/auth-api';
import { copyText } from '../../../lib/clipboard';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { ShareLinkButton } from '../../../shared/affiliate';
import { useImageDownload, useToolJob, type JobOutcome } from '../../../shared/tool-job';
import {
  extractPromptFromImage,
  fetchBannedKeywords,
  fetchGenerationHistory,
  fetchGenerationStatus,
  postGeneration,
  resultToUpload,
  rewritePrompt,
  confirmRewriteCharge,
} from '../api/generation-api';
import {
  GENERATION_POLLING_SCHEDULE,
  fromHistoryImage,
  generationErrorKey,
  isAcceptedReference,
  jobFailureKey,
  readLocalHistory,
  saveLocalHistory,
  type GenerationItem,
} from '../lib/generation';
import { AspectPicker, CountPicker, EditPromptTab, PromptLockDialog, ZoomDialog } from './generation-parts';
import { GenerationHistory, ResultsGrid } from './generation-results';
import './image-generation.css';

/** The retouch workspace's handoff entry (features/upscale/lib/handoff.ts reads it). */
const HANDOFF_KEY = 'pendingHandoff';

/** A pending handoff targeted at this page (002 §2): `character_image` fills the character slot, any other role the reference. */
function takeOwnHandoff(): { imageUrl: string; role: string } | null {
  try {
    const raw = window.localStorage.getItem(HANDOFF_KEY);
    const v = raw ? (JSON.parse(raw) as { target?: unknown; imageUrl?: unknown; role?: unknown }) : null;
    if (!v || (v.target !== 'image-generation' && v.target !== 'consistency') || typeof v.imageUrl !== 'string') return null;
    window.localStorage.removeItem(HANDOFF_KEY);
    return { imageUrl: v.imageUrl, role: typeof v.role === 'string' ? v.role : 'reference' };
  } catch {
    return null;
  }
}

interface Reference {
  file: File;
  previewUrl: string;
}

/** The consistency (image generation) tool, /image-generation and /en/image-generation (spec 002 §2–§9). */
export function ImageGenerationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lp } = useLocale();
  const { user, forceSync } = useSession();
  const userId = user?.id;
  const flags = useQuery({ queryKey: ['feature-flags', 'raw'], queryFn: fetchFeatureFlags, staleTime: 60_000, retry: false });
  const configured = flags.data ? flags.data.imageGenerationEnabled : true;
  const banned = useQuery({ queryKey: ['banned-keywords'], queryFn: fetchBannedKeywords, staleTime: 5 * 60_000, retry: false });
  const keywords = banned.isError ? IMAGE_GENERATION.fallbackBannedKeywords : (banned.data ?? IMAGE_GENERATION.fallbackBannedKeywords);

  const [reference, setReference] = useState<Reference | null>(null);
  const [character, setCharacter] = useState<string | null>(null);
  const [tab, setTab] = useState<'input' | 'edit'>('input');
  const [prompt, setPrompt] = useState('');
  const [previousPrompt, setPreviousPrompt] = useState<string | null>(null);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [aspect, setAspect] = useState<GenerationAspectRatio>(IMAGE_GENERATION.defaultAspectRatio);
  const [count, setCount] = useState<number>(IMAGE_GENERATION.count.default);
  const [submitting, setSubmitting] = useState(false);
  const [rewriting, setRewriting] = useState(false);
  const [lockOpen, setLockOpen] = useState(false);
  const [zoom, setZoom] = useState<string | null>(null);
  const [shown, setShown] = useState<{ urls: string[]; partial: boolean }>({ urls: [], partial: false });
  const [sending, setSending] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [history, setHistory] = useState<{ items: GenerationItem[]; next: number | null; loading: boolean; loadingMore: boolean }>({ items: [], next: null, loading: true, loadingMore: false });
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const clickTimer = useRef<number | null>(null);
  const { download } = useImageDownload();

  // Release the reference preview's object URL when it is replaced or the page goes.
  useEffect(() => () => (reference ? URL.revokeObjectURL(reference.previewUrl) : undefined), [reference]);

  /** History (002 §7): 10 first (25 on refresh), 5 per Load more; the local copy (≤ 50) shows until it arrives. */
  const loadHistory = useCallback(
    async (opts: { refresh?: boolean; q?: string } = {}) => {
      if (userId === undefined) {
        setHistory({ items: readLocalHistory(undefined), next: null, loading: false, loadingMore: false });
        return;
      }
      setHistory((h) => ({ ...h, loading: h.items.length === 0 }));
      try {
        const limit = opts.refresh ? IMAGE_GENERATION.historyPage.refresh : IMAGE_GENERATION.historyPage.first;
        const res = await fetchGenerationHistory(userId, { group_limit: limit, group_offset: 0, q: opts.q || undefined });
        const items = res.images.map(fromHistoryImage);
        if (!opts.q) saveLocalHistory(userId, items);
        setHistory({ items, next: res.pagination.nextGroupOffset ?? res.pagination.nextOffset ?? null, loading: false, loadingMore: false });
      } catch (err) {
        console.warn('[image-generation] history failed', err);
        setHistory({ items: opts.q ? [] : readLocalHistory(userId), next: null, loading: false, loadingMore: false });
      }
    },
    [userId],
  );
  useEffect(() => {
    if (userId !== undefined) setHistory({ items: readLocalHistory(userId), next: null, loading: true, loadingMore: false });
    void loadHistory();
  }, [userId, loadHistory]);

  const loadMore = async () => {
    if (userId === undefined || history.next === null) return;
    setHistory((h) => ({ ...h, loadingMore: true }));
    try {
      const res = await fetchGenerationHistory(userId, { group_limit: IMAGE_GENERATION.historyPage.more, group_offset: history.next, q: query || undefined });
      setHistory((h) => ({ items: [...h.items, ...res.images.map(fromHistoryImage)], next: res.pagination.nextGroupOffset ?? null, loading: false, loadingMore: false }));
    } catch {
      notify.error(t('toolJob.error.historyLoad'));
      setHistory((h) => ({ ...h, loadingMore: false }));
    }
  };

  const trackedJob = useRef<string | null>(null);
  const promptRef = useRef(prompt);
  useEffect(() => {
    promptRef.current = prompt;
  }, [prompt]);
  const onSettled = useCallback(
    (outcome: JobOutcome) => {
      void forceSync();
      const jobId = trackedJob.current;
      if (!jobId) return;
      if (outcome.status === 'completed') {
        void fetchGenerationStatus(jobId)
          .then((s) => {
            const urls = s.images?.length ? s.images : s.imageUrl ? [s.imageUrl] : [];
            setShown({ urls, partial: s.partial === true });
            setSelectedId(jobId);
            if (userId !== undefined || urls.length) saveLocalHistory(userId, [{ id: jobId, referenceUrl: s.originalImageUrl, urls, prompt: promptRef.current, createdAt: new Date().toISOString(), partial: s.partial === true }]);
            void loadHistory();
          })
          .catch(() => notify.error(t('imageGeneration.error.invalidResponse')));
      } else if (outcome.reason === 'timeout') {
        notify.info(t('imageGeneration.error.timeout'));
      } else {
        void fetchGenerationStatus(jobId)
          .then((s) => notify.error(t(jobFailureKey(s.error))))
          .catch(() => notify.error(t('imageGeneration.error.failed')));
      }
    },
    [forceSync, loadHistory, t, userId],
  );
  const job = useToolJob({ source: 'kling', schedule: GENERATION_POLLING_SCHEDULE, onSettled, failedKey: 'imageGeneration.error.failed', timeoutKey: 'imageGeneration.error.timeout' });
  const processing = job.state.status === 'processing';
  const busy = submitting || processing;

  // A handoff from another tool (002 §2).
  useEffect(() => {
    const handoff = takeOwnHandoff();
    if (!handoff) return;
    if (handoff.role === 'character_image') {
      setCharacter(handoff.imageUrl);
      return;
    }
    void fetch(handoff.imageUrl, { credentials: 'include' })
      .then((r) => r.blob())
      .then((blob) => {
        const ext = blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg';
        const file = new File([blob], `reference.${ext}`, { type: blob.type || 'image/jpeg' });
        setReference({ file, previewUrl: URL.createObjectURL(file) });
      })
      .catch(() => undefined);
  }, []);

  const pickReference = (file: File | undefined) => {
    if (!file) return;
    if (!isAcceptedReference(file)) {
      notify.error(t('imageGeneration.error.fileType'));
      return;
    }
    setReference({ file, previewUrl: URL.createObjectURL(file) });
  };

  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const cost = imageGenerationCost(count);

  const generate = async () => {
    if (!user && !['localhost', '127.0.0.1'].includes(window.location.hostname)) {
      notify.error(t('imageGeneration.error.loginRequired'));
      return;
    }
    if (busy) {
      notify.info(t('imageGeneration.error.alreadyRunning'));
      return;
    }
    if (!prompt.trim() && !reference) {
      notify.error(t('imageGeneration.error.inputRequired'));
      return;
    }
    if (prompt.trim() && hasBannedKeyword(prompt, keywords)) {
      notify.error(t('imageGeneration.error.nsfw'));
      return;
    }
    if (user && balance < cost) {
      notify.error(t('imageGeneration.error.insufficientCredits'));
      return;
    }
    setSubmitting(true);
    try {
      let text = prompt.trim();
      if (reference && !text) {
        // 002 §4: a reference with an empty prompt: extract the prompt from the image, then lock it.
        try {
          text = await extractPromptFromImage(reference.file);
          setPrompt(text);
        } catch {
          notify.error(t('imageGeneration.error.extractFailed'));
          return;
        }
      }
      const res = await postGeneration({ prompt: text, numImages: count, aspectRatio: aspect, reference: reference?.file ?? null });
      if (!res || typeof res.taskId !== 'string') {
        notify.error(t('imageGeneration.error.invalidResponse'));
        return;
      }
      setShown({ urls: [], partial: false });
      trackedJob.current = res.taskId;
      job.track(res.taskId, reference?.previewUrl ?? null);
      void forceSync();
    } catch (err) {
      const e = generationErrorKey(err);
      notify.error('key' in e ? t(e.key) : e.text);
    } finally {
      setSubmitting(false);
    }
  };

  const applyRewrite = async (instruction: string) => {
    if (!instruction.trim()) {
      notify.error(t('imageGeneration.error.rewriteEmpty'));
      return;
    }
    if (balance < IMAGE_GENERATION.rewriteCost) {
      notify.error(t('imageGeneration.error.insufficientCredits'));
      return;
    }
    setRewriting(true);
    try {
      const res = await rewritePrompt({ userPrompt: instruction.trim(), currentPrompt: prompt, threadId });
      if (!res.success || !res.rewrittenPrompt) throw new Error('rewrite failed');
      try {
        await confirmRewriteCharge(res.rewriteId);
      } catch {
        notify.error(t('imageGeneration.error.applyCancelled'));
        return;
      }
      setPreviousPrompt(prompt);
      setPrompt(res.rewrittenPrompt);
      setThreadId(res.threadId ?? threadId);
      setTab('input');
      void forceSync();
    } catch (err) {
      console.warn('[image-generation] rewrite failed', err);
      notify.error(t('imageGeneration.error.rewriteFailed'));
    } finally {
      setRewriting(false);
    }
  };

  const restore = () => {
    if (previousPrompt === null) return;
    if (!window.confirm(t('imageGeneration.edit.restoreConfirm'))) return;
    setPrompt(previousPrompt);
    setPreviousPrompt(null);
  };

  const copyLink = async (url: string) => {
    const absolute = new URL(url, window.location.origin).toString();
    if (await copyText(absolute)) notify.success(t('imageGeneration.result.linkCopied'));
    else notify.error(t('imageGeneration.error.copyFailed'));
  };

  const sendToUpscale = async (url: string) => {
    setSending(url);
    try {
      // The retouch workspace takes uploads only: the server copies this result into a new upload of mine.
      const copy = await resultToUpload(url);
      window.localStorage.setItem(HANDOFF_KEY, JSON.stringify({ target: 'upscale', imageUrl: copy.imageUrl }));
      void navigate(lp('/upscale'));
    } catch (err) {
      const e = generationErrorKey(err);
      notify.error('key' in e ? t(e.key) : e.text);
    } finally {
      setSending(null);
    }
  };

  const selectHistory = (item: GenerationItem) => {
    if (clickTimer.current !== null) window.clearTimeout(clickTimer.current);
    clickTimer.current = window.setTimeout(() => {
      clickTimer.current = null;
      if (busy) {
        notify.info(t('toolJob.history.busy'));
        return;
      }
      setSelectedId(item.id);
      setShown({ urls: item.urls, partial: item.partial === true });
      if (item.prompt) setPrompt(item.prompt);
    }, HISTORY_CLICK_DEBOUNCE_MS);
  };

  const locked = reference !== null;
  const loadingCount = processing || submitting ? count : 0;

  return (
    <div className="container page gen-page" data-testid="gen-page">
      <div className="gen-head">
        <div>
          <h1>{t('imageGeneration.title')}</h1>
          <p className="gen-sub">{t('imageGeneration.subtitle')}</p>
        </div>
        <ShareLinkButton testIdPrefix="gen" />
      </div>
      {!configured ? (
        <div className="gen-banner" role="status" data-testid="gen-not-configured">
          {t('imageGeneration.notConfigured')}
        </div>
      ) : null}

      <div className="gen-layout">
        <aside className="gen-controls card" aria-label={t('imageGeneration.controlsLabel')}>
          <div className="gen-slots">
            <div className="gen-slot is-soon" data-testid="gen-character-slot" aria-disabled="true">
              {character ? <img src={character} alt="" /> : <svg className="gen-slot-icon" viewBox="0 0 24 24" width="30" height="30" aria-hidden="true"><path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8c0-3.3 3.1-6 7-6s7 2.7 7 6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></svg>}
              <span className="gen-slot-label">{t('imageGeneration.slot.character')}</span>
              <span className="ui-badge ui-badge-muted">{t('imageGeneration.slot.soon')}</span>
            </div>
            <div
              className={`gen-slot${reference ? ' has-image' : ''}`}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (!busy) pickReference(e.dataTransfer.files[0]);
              }}
            >
              {reference ? (
                <>
                  <img src={reference.previewUrl} alt={t('imageGeneration.slot.referenceAlt')} data-testid="gen-reference-preview" />
                  <button type="button" className="gen-slot-remove" onClick={() => setReference(null)} disabled={busy} aria-label={t('imageGeneration.slot.remove')} data-testid="gen-reference-remove">
                    ×
                  </button>
                </>
              ) : (
                <button type="button" className="gen-slot-pick" onClick={() => fileInput.current?.click()} disabled={busy} data-testid="gen-reference-pick">
                  <svg className="gen-slot-icon" viewBox="0 0 24 24" width="30" height="30" aria-hidden="true"><path d="M12 5v14M5 12h14" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
                </button>
              )}
              <span className="gen-slot-label">{t('imageGeneration.slot.reference')}</span>
              <input
                ref={fileInput}
                type="file"
                hidden
                accept=".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp"
                onChange={(e) => {
                  pickReference(e.target.files?.[0]);
                  e.target.value = '';
                }}
                data-testid="gen-reference-input"
              />
            </div>
          </div>

          <Tabs
            className="gen-tabs"
            label={t('imageGeneration.tabs.label')}
            value={tab}
            onValueChange={(v) => setTab(v as 'input' | 'edit')}
            items={[
              {
                value: 'input',
                label: t('imageGeneration.tabs.input'),
                testId: 'gen-tab-input',
                content: (
                  <div className="gen-prompt-wrap" onClick={() => (locked ? setLockOpen(true) : undefined)} data-testid="gen-prompt-wrap">
                    <label className="gen-label" htmlFor="gen-prompt">
                      {t('imageGeneration.prompt.label')}
                      {locked ? <span className="ui-badge ui-badge-muted gen-lock-badge" data-testid="gen-prompt-locked">
                          <svg viewBox="0 0 24 24" width="11" height="11" aria-hidden="true"><path d="M7 11V8a5 5 0 0 1 10 0v3M6 11h12v9H6z" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" /></svg>
                          {t('imageGeneration.prompt.locked')}
                        </span> : null}
                    </label>
                    <textarea
                      id="gen-prompt"
                      className="input gen-textarea"
                      rows={5}
                      value={prompt}
                      readOnly={locked}
                      maxLength={IMAGE_GENERATION.promptMaxChars}
                      onChange={(e) => setPrompt(e.target.value)}
                      placeholder={t('imageGeneration.prompt.placeholder')}
                      data-testid="gen-prompt"
                    />
                  </div>
                ),
              },
              {
                value: 'edit',
                label: t('imageGeneration.tabs.edit'),
                testId: 'gen-tab-edit',
                content: <EditPromptTab busy={rewriting} canRestore={previousPrompt !== null} onApply={(i) => void applyRewrite(i)} onRestore={restore} />,
              },
            ]}
          />

          <AspectPicker value={aspect} onChange={setAspect} disabled={busy} />
          <CountPicker value={count} onChange={setCount} disabled={busy} />

          <div className="gen-run">
            <button type="button" className="btn btn-primary btn-lg gen-run-btn" onClick={() => void generate()} disabled={busy || !configured} aria-busy={busy} data-testid="gen-run">
              {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
              {busy ? t('imageGeneration.run.busy') : t('imageGeneration.run.label')}
              <span className="gen-cost" data-testid="gen-cost">
                {t('imageGeneration.run.cost', { cost })}
              </span>
            </button>
            {user ? <p className="gen-balance">{t('imageGeneration.run.balance', { balance })}</p> : null}
          </div>
        </aside>

        <div className="gen-main">
          <ResultsGrid
            urls={busy ? [] : shown.urls}
            loadingCount={loadingCount}
            sending={sending}
            partial={!busy && shown.partial}
            actions={{ onZoom: setZoom, onDownload: (u) => void download(u), onCopyLink: (u) => void copyLink(u), onSendToUpscale: (u) => void sendToUpscale(u) }}
          />
          <GenerationHistory
            items={history.items}
            loading={history.loading}
            hasMore={history.next !== null}
            loadingMore={history.loadingMore}
            selectedId={selectedId}
            search={search}
            onSearchChange={setSearch}
            onSearch={() => {
              setQuery(search.trim());
              void loadHistory({ q: search.trim() });
            }}
            onSelect={selectHistory}
            onLoadMore={() => void loadMore()}
          />
        </div>
      </div>

      <PromptLockDialog open={lockOpen} onOpenChange={setLockOpen} onRemoveReference={() => setReference(null)} />
      <ZoomDialog url={zoom} onClose={() => setZoom(null)} />
    </div>
  );
}
