import { IMAGE_GENERATION, hasBannedKeyword, type GenerationAspectRatio } from '@dewy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Tabs } from '../../../components/ui/tabs';
import { fetchFeatureFlags } from '../../../lib/auth-api';
import { copyText } from '../../../lib/clipboard';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { ShareLinkButton } from '../../../shared/affiliate';
import { INSUFFICIENT_CREDITS_KEY, giveHandoff, takeHandoff, useToolWorkspace } from '../../../shared/tool-job';
import { isAcceptedReference, type GenerationItem } from '../lib/generation';
import { imageGenerationTool } from '../tool';
import { AspectPicker, CountPicker, EditPromptTab, LockBadge, PromptLockDialog, ZoomDialog } from './generation-parts';
import { GenerationHistory, ResultsGrid } from './generation-results';
import './image-generation.css';

interface Reference {
  file: File;
  previewUrl: string;
}

/**
 * The consistency (image generation) tool, /image-generation and /en/image-generation (spec 002 §2–§9):
 * its options (reference, prompt and its AI rewrite, ratio, count) and its layout; the job, the history
 * and the messages are the shared workspace's (imageGenerationTool).
 */
export function ImageGenerationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lp } = useLocale();
  const { user, forceSync } = useSession();
  const flags = useQuery({ queryKey: ['feature-flags', 'raw'], queryFn: fetchFeatureFlags, staleTime: 60_000, retry: false });
  const configured = flags.data ? flags.data.imageGenerationEnabled : true;
  const banned = useQuery({ queryKey: ['banned-keywords'], queryFn: imageGenerationTool.api.bannedKeywords, staleTime: 5 * 60_000, retry: false });
  const keywords = banned.isError ? IMAGE_GENERATION.fallbackBannedKeywords : (banned.data ?? IMAGE_GENERATION.fallbackBannedKeywords);

  const [reference, setReference] = useState<Reference | null>(null);
  const [character, setCharacter] = useState<string | null>(null);
  const [tab, setTab] = useState<'input' | 'edit'>('input');
  const [prompt, setPrompt] = useState('');
  const [previousPrompt, setPreviousPrompt] = useState<string | null>(null);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [aspect, setAspect] = useState<GenerationAspectRatio>(IMAGE_GENERATION.defaultAspectRatio);
  const [count, setCount] = useState<number>(IMAGE_GENERATION.count.default);
  const [rewriting, setRewriting] = useState(false);
  const [lockOpen, setLockOpen] = useState(false);
  const [zoom, setZoom] = useState<string | null>(null);
  const [sending, setSending] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);

  // A history item shows its results and puts its prompt back (002 §2).
  const ws = useToolWorkspace(imageGenerationTool, {
    onOpenItem: (item: GenerationItem) => {
      if (item.prompt) setPrompt(item.prompt);
    },
  });
  const { job, busy } = ws;
  const shown = job.status === 'completed' ? { urls: job.urls, partial: job.partial } : { urls: [], partial: false };

  // Release the reference preview's object URL when it is replaced or the page goes.
  useEffect(() => () => (reference ? URL.revokeObjectURL(reference.previewUrl) : undefined), [reference]);

  // A handoff from another tool (002 §2).
  useEffect(() => {
    const handoff = takeHandoff(['image-generation', 'consistency']);
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
      ws.toast({ key: 'imageGeneration.error.fileType' });
      return;
    }
    setReference({ file, previewUrl: URL.createObjectURL(file) });
  };

  const balance = ws.balance;
  const cost = imageGenerationTool.cost(count);

  const generate = () => {
    if (!user && !['localhost', '127.0.0.1'].includes(window.location.hostname)) {
      ws.toast({ key: 'imageGeneration.error.loginRequired' });
      return;
    }
    if (busy) {
      ws.toast({ key: 'imageGeneration.error.alreadyRunning', tone: 'info' });
      return;
    }
    if (!prompt.trim() && !reference) {
      ws.toast({ key: 'imageGeneration.error.inputRequired' });
      return;
    }
    if (prompt.trim() && hasBannedKeyword(prompt, keywords)) {
      ws.toast({ key: 'imageGeneration.error.nsfw' });
      return;
    }
    if (user && balance < cost) {
      ws.toast({ key: INSUFFICIENT_CREDITS_KEY });
      return;
    }
    void ws.start(async () => {
      let text = prompt.trim();
      if (reference && !text) {
        // 002 §4: a reference with an empty prompt: extract the prompt from the image, then lock it.
        try {
          text = await imageGenerationTool.api.extractPrompt(reference.file);
          setPrompt(text);
        } catch {
          return { stopped: { key: 'imageGeneration.error.extractFailed' } };
        }
      }
      const res = await imageGenerationTool.api.create({ prompt: text, numImages: count, aspectRatio: aspect, reference: reference?.file ?? null });
      if (!res || typeof res.taskId !== 'string') return { stopped: { key: 'imageGeneration.error.invalidResponse' } };
      return { jobId: res.taskId, originalUrl: reference?.previewUrl ?? null, selectKey: res.taskId };
    });
  };

  const applyRewrite = async (instruction: string) => {
    // 002 §4: a reference image locks the prompt; no rewrite may replace it.
    if (reference) {
      setLockOpen(true);
      return;
    }
    if (!instruction.trim()) {
      ws.toast({ key: 'imageGeneration.error.rewriteEmpty' });
      return;
    }
    if (balance < IMAGE_GENERATION.rewriteCost) {
      ws.toast({ key: INSUFFICIENT_CREDITS_KEY });
      return;
    }
    setRewriting(true);
    try {
      const res = await imageGenerationTool.api.rewrite({ userPrompt: instruction.trim(), currentPrompt: prompt, threadId });
      if (!res.success || !res.rewrittenPrompt) throw new Error('rewrite failed');
      try {
        await imageGenerationTool.api.confirmRewriteCharge(res.rewriteId);
      } catch {
        ws.toast({ key: 'imageGeneration.error.applyCancelled' });
        return;
      }
      setPreviousPrompt(prompt);
      setPrompt(res.rewrittenPrompt);
      setThreadId(res.threadId ?? threadId);
      setTab('input');
      void forceSync();
    } catch (err) {
      console.warn('[image-generation] rewrite failed', err);
      ws.toast({ key: 'imageGeneration.error.rewriteFailed' });
    } finally {
      setRewriting(false);
    }
  };

  const restore = () => {
    if (previousPrompt === null || reference) return;
    if (!window.confirm(t('imageGeneration.edit.restoreConfirm'))) return;
    setPrompt(previousPrompt);
    setPreviousPrompt(null);
  };

  const copyLink = async (url: string) => {
    const absolute = new URL(url, window.location.origin).toString();
    if (await copyText(absolute)) ws.toast({ key: 'imageGeneration.result.linkCopied', tone: 'success' });
    else ws.toast({ key: 'imageGeneration.error.copyFailed' });
  };

  const sendToUpscale = async (url: string) => {
    setSending(url);
    try {
      // The retouch workspace takes uploads only: the server copies this result into a new upload of mine.
      const copy = await imageGenerationTool.api.resultToUpload(url);
      giveHandoff('upscale', copy.imageUrl);
      void navigate(lp('/upscale'));
    } catch (err) {
      ws.reportError(err);
    } finally {
      setSending(null);
    }
  };

  const locked = reference !== null;
  const loadingCount = busy ? count : 0;

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
                      {locked ? <LockBadge testId="gen-prompt-locked" /> : null}
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
                content: <EditPromptTab busy={rewriting} canRestore={previousPrompt !== null} locked={locked} onApply={(i) => void applyRewrite(i)} onRestore={restore} onLockedClick={() => setLockOpen(true)} />,
              },
            ]}
          />

          <AspectPicker value={aspect} onChange={setAspect} disabled={busy} />
          <CountPicker value={count} onChange={setCount} disabled={busy} />

          <div className="gen-run">
            <button type="button" className="btn btn-primary btn-lg gen-run-btn" onClick={generate} disabled={busy || !configured} aria-busy={busy} data-testid="gen-run">
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
            actions={{ onZoom: setZoom, onDownload: (u) => void ws.download(u), onCopyLink: (u) => void copyLink(u), onSendToUpscale: (u) => void sendToUpscale(u) }}
          />
          <GenerationHistory
            items={ws.state.history.items}
            loading={ws.state.history.loading}
            hasMore={ws.state.history.hasMore}
            loadingMore={ws.state.history.loadingMore}
            selectedId={typeof ws.state.selectedKey === 'string' ? ws.state.selectedKey : null}
            search={search}
            onSearchChange={setSearch}
            onSearch={() => ws.search(search)}
            onSelect={ws.selectHistory}
            onLoadMore={ws.loadMore}
          />
        </div>
      </div>

      <PromptLockDialog open={lockOpen} onOpenChange={setLockOpen} onRemoveReference={() => setReference(null)} />
      <ZoomDialog url={zoom} onClose={() => setZoom(null)} />
    </div>
  );
}
