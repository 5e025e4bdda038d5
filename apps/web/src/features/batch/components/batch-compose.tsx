import { BATCH_LIMITS, DEFAULT_CREDITS_DISPLAY, type BatchCreateRequestRaw, type BatchResponse } from '@dewy/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useBatchTranslation } from '../lib/i18n';
import { Link } from 'react-router';
import { DropIcon } from '../../../components/ui/drop-icon';
import { ApiError } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { endedSession, loadImage, sharedFailureKey, uploadErrorKey, uploadImage } from '../../../shared/tool-job';
import { jpegName, resizeToJpeg } from '../../../shared/tool-job/lib/image-file';
import { postBatch } from '../api/batches';
import { DEFAULT_OPTIONS, RetouchOptionsPanel, retouchInputFields, updateOptions, type UpscaleOptions } from '../../../shared/retouch-options';
import { fileIssue, planBatch, type LocalPhoto } from '../lib/photo-plan';
import { LocalPhotoCard, type UploadState } from './photo-cards';

/** Files read at most on the page (twice a batch): more are not even previewed. */
const MAX_PICKED = BATCH_LIMITS.maxPhotos * 2;

/** Upload failures that hold for every photo (the service, the account): the batch stops there. */
const STOP_KEYS = new Set(['toolJob.error.maintenance', 'toolJob.error.emailNotVerified', 'toolJob.error.storageFull', 'toolJob.error.uploadQuota']);

interface PickedItem {
  key: string;
  file: File;
  /** A small local thumbnail (object URL), null until the photo is read or when it cannot be. */
  previewUrl: string | null;
  size: LocalPhoto['size'];
  upload: UploadState;
}

/** Longest side of a card's thumbnail (px): 50 camera photos decoded at full size would take gigabytes. */
const THUMB_PX = 480;

/** A JPEG thumbnail of a decoded image as an object URL (null when the canvas cannot encode). */
async function thumbnail(source: CanvasImageSource, width: number, height: number): Promise<string | null> {
  const k = Math.min(1, THUMB_PX / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * k));
  canvas.height = Math.max(1, Math.round(height * k));
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
  return blob ? URL.createObjectURL(blob) : null;
}

/**
 * A picked file read locally: its pixel size (createImageBitmap, else an <img>) and a thumbnail;
 * 'unreadable' when it cannot be decoded.
 */
async function readPhoto(file: File): Promise<{ size: LocalPhoto['size']; thumbUrl: string | null }> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file);
      try {
        return { size: { width: bitmap.width, height: bitmap.height }, thumbUrl: await thumbnail(bitmap, bitmap.width, bitmap.height) };
      } finally {
        bitmap.close();
      }
    } catch {
      // fall back to an <img>
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = await loadImage(url);
    return { size: { width: img.naturalWidth, height: img.naturalHeight }, thumbUrl: await thumbnail(img, img.naturalWidth, img.naturalHeight) };
  } catch {
    return { size: 'unreadable', thumbUrl: null };
  } finally {
    URL.revokeObjectURL(url);
  }
}

let nextKey = 0;

/**
 * Composing a batch: pick or drop up to 50 photos, each read locally (pixel size) and shown with its cost
 * at the chosen scale or the reason it is left out; one set of options for all; the total of the
 * included photos against the balance. "Start batch" uploads the included photos one after another
 * (large ones resized first, as the single workspace does), then creates the batch
 * (`POST /api/batches` with a fresh Idempotency-Key, reused only to resend the very same request after
 * it failed) and hands it to the page.
 */
export function BatchCompose({ onStarted }: { onStarted: (res: BatchResponse) => void }) {
  const { t } = useBatchTranslation();
  const { locale, lp } = useLocale();
  const { user, forceSync } = useSession();
  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const [items, setItems] = useState<PickedItem[]>([]);
  const [options, setOptions] = useState<UpscaleOptions>(DEFAULT_OPTIONS);
  const [phase, setPhase] = useState<'idle' | 'uploading' | 'submitting'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  const alive = useRef(true);
  const failedRequest = useRef<{ body: string; key: string } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const busy = phase !== 'idle';

  // Local previews are released with the page.
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      for (const item of itemsRef.current) if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
    };
  }, []);

  const plan = useMemo(() => planBatch(items.map((i) => ({ name: i.file.name, bytes: i.file.size, size: i.size })), options.scale, balance), [items, options.scale, balance]);

  // Read the picked photos' sizes one at a time, in order.
  const toRead = items.find((i) => i.size === null && fileIssue(i.file.name, i.file.size) === null);
  const readingKey = toRead?.key ?? null;
  useEffect(() => {
    if (!readingKey) return;
    const item = itemsRef.current.find((i) => i.key === readingKey);
    if (!item) return;
    let cancelled = false;
    void readPhoto(item.file).then(({ size, thumbUrl }) => {
      if (cancelled) {
        if (thumbUrl) URL.revokeObjectURL(thumbUrl);
        return;
      }
      setItems((prev) => prev.map((i) => (i.key === readingKey ? { ...i, size, previewUrl: thumbUrl } : i)));
    });
    return () => {
      cancelled = true;
    };
  }, [readingKey]);

  const addFiles = (files: File[]) => {
    if (busy || files.length === 0) return;
    const room = MAX_PICKED - itemsRef.current.length;
    if (files.length > room) notify.info(t('batch.toast.tooMany', { max: MAX_PICKED }));
    const added = files.slice(0, Math.max(0, room)).map(
      (file): PickedItem => ({ key: `p${++nextKey}`, file, previewUrl: null, size: null, upload: { state: 'idle' } }),
    );
    setError(null);
    setItems((prev) => [...prev, ...added]);
  };

  const remove = (key: string) => {
    const item = items.find((i) => i.key === key);
    if (item?.previewUrl) URL.revokeObjectURL(item.previewUrl);
    setItems((prev) => prev.filter((i) => i.key !== key));
  };

  const clear = () => {
    for (const item of items) if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
    setItems([]);
    setError(null);
  };

  const setUpload = useCallback((key: string, upload: UploadState) => {
    setItems((prev) => prev.map((i) => (i.key === key ? { ...i, upload } : i)));
  }, []);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    addFiles(Array.from(e.dataTransfer.files));
  };

  const canStart = !busy && !plan.reading && plan.included > 0 && plan.covered > 0;

  const start = async () => {
    if (!canStart) return;
    setError(null);
    const chosen = items.map((item, i) => ({ item, plan: plan.photos[i]! })).filter((x) => x.plan.issue === null);
    setPhase('uploading');
    setItems((prev) => prev.map((i) => (chosen.some((c) => c.item.key === i.key) && i.upload.state !== 'uploaded' ? { ...i, upload: { state: 'waiting' } } : i)));
    const photos: BatchCreateRequestRaw['photos'] = [];
    let leftOut = 0;
    const stop = (message: string | null) => {
      setItems((prev) => prev.map((i) => (i.upload.state === 'waiting' || i.upload.state === 'uploading' ? { ...i, upload: { state: 'idle' } } : i)));
      if (message) setError(message);
      setPhase('idle');
    };
    for (const { item, plan: p } of chosen) {
      if (!alive.current) return;
      const current = itemsRef.current.find((i) => i.key === item.key)?.upload;
      const name = item.file.name.slice(0, BATCH_LIMITS.nameMax);
      if (current?.state === 'uploaded') {
        photos.push({ image: current.imageUrl, name });
        continue;
      }
      setUpload(item.key, { state: 'uploading' });
      try {
        let blob: Blob = item.file;
        let uploadName = item.file.name;
        if (p.resized && p.upload) {
          const url = URL.createObjectURL(item.file);
          try {
            blob = await resizeToJpeg(await loadImage(url), p.upload);
          } finally {
            URL.revokeObjectURL(url);
          }
          uploadName = jpegName(item.file.name);
        }
        const res = await uploadImage(blob, uploadName, 'upscale-original');
        setUpload(item.key, { state: 'uploaded', imageUrl: res.imageUrl });
        photos.push({ image: res.imageUrl, name });
      } catch (err) {
        console.warn('[batch] upload failed', err);
        const key = uploadErrorKey(err, 'upscale.error.fileType');
        if (key === null) return stop(null); // the session ended: its modal is the one message
        setUpload(item.key, { state: 'failed', key });
        if (STOP_KEYS.has(key)) return stop(t(key));
        leftOut += 1;
      }
    }
    if (!alive.current) return;
    if (photos.length === 0) return stop(t('batch.error.noneUploaded'));

    const body: BatchCreateRequestRaw = { tool: 'upscale', options: retouchInputFields(options), photos };
    const text = JSON.stringify(body);
    // A fresh key for every new batch; the same one only to resend a request that failed, so that a
    // batch the server did record is answered again instead of charged twice.
    const key = failedRequest.current?.body === text ? failedRequest.current.key : crypto.randomUUID();
    setPhase('submitting');
    try {
      const res = await postBatch(body, key);
      failedRequest.current = null;
      void forceSync();
      if (leftOut > 0) notify.info(t('batch.toast.leftOut', { n: leftOut }));
      if (alive.current) onStarted(res);
    } catch (err) {
      console.warn('[batch] start failed', err);
      failedRequest.current = { body: text, key };
      if (endedSession(err)) return stop(null);
      const shared = sharedFailureKey(err);
      stop(shared ? t(shared) : err instanceof ApiError && !err.isNetwork ? err.message : t('batch.error.start'));
    }
  };

  const uploadedCount = items.filter((i) => i.upload.state === 'uploaded').length;
  const uploadTotal = items.filter((i) => i.upload.state !== 'idle').length;
  const blockedCount = plan.photos.filter((p) => p.issue === 'blocked').length;
  const notCovered = plan.included - plan.covered;

  return (
    <div className="batch-layout">
      <div
        className={`batch-drop batch-area-drop ${over ? 'is-over' : ''} ${items.length ? 'is-compact' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          if (!busy) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="batch-drop"
      >
        <input
          ref={input}
          id="batch-files"
          type="file"
          multiple
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          className="visually-hidden"
          disabled={busy}
          data-testid="batch-file-input"
          onChange={(e) => {
            addFiles(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <label htmlFor="batch-files" className="batch-drop-label">
          <span className="batch-drop-icon" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M12 16V4M6 10l6-6 6 6M4 20h16" />
            </svg>
          </span>
          <strong>{items.length ? t('batch.drop.more') : t('batch.drop.title')}</strong>
          <span>{t('batch.drop.hint', { max: BATCH_LIMITS.maxPhotos })}</span>
          <span className="batch-drop-formats">JPG · JPEG · PNG · 25MB</span>
        </label>
      </div>

      <aside className="batch-side card" aria-label={t('batch.options.title')}>
        <div className="batch-options" data-testid="batch-options">
          <h2 className="batch-section-title">{t('batch.options.title')}</h2>
          <RetouchOptionsPanel
            options={options}
            idPrefix="batch"
            disabled={busy}
            scale={{ hint: blockedCount > 0 ? t('batch.options.blockedHint', { n: blockedCount, scale: options.scale.toFixed(1) }) : null, hintTone: 'warn' }}
            onChange={(patch) => setOptions((prev) => updateOptions(prev, patch))}
          />
        </div>
        <div className="batch-summary" data-testid="batch-summary">
          <dl className="batch-summary-rows">
            <div>
              <dt>{t('batch.summary.photos')}</dt>
              <dd data-testid="batch-included" data-included={plan.included}>
                {t('batch.summary.photosValue', { included: plan.included, picked: items.length })}
              </dd>
            </div>
            <div>
              <dt>{t('batch.summary.total')}</dt>
              <dd>
                <strong className="batch-total" data-testid="batch-total" data-total={plan.total}>
                  <DropIcon size={13} /> {formatNumber(plan.total, locale)}
                </strong>
              </dd>
            </div>
            <div>
              <dt>{t('batch.summary.balance')}</dt>
              <dd data-testid="batch-balance">{formatNumber(balance, locale)}</dd>
            </div>
          </dl>
          {plan.included > 0 && notCovered > 0 && plan.covered > 0 ? (
            <p className="batch-note is-warn" role="status" data-testid="batch-coverage-note">
              {t('batch.summary.partial', { covered: plan.covered, n: plan.included, rest: notCovered })}
            </p>
          ) : null}
          {plan.included > 0 && plan.covered === 0 && !plan.reading ? (
            <p className="batch-note is-warn" role="status" data-testid="batch-coverage-note">
              {t('toolJob.error.insufficientCredits')}{' '}
              <Link to={lp('/pricing?tab=credits')}>{t('batch.summary.buy')}</Link>
            </p>
          ) : null}
          <button type="button" className="btn btn-primary btn-block batch-start" onClick={() => void start()} disabled={!canStart} aria-busy={busy} data-testid="batch-start">
            {phase === 'uploading'
              ? t('batch.start.uploading', { done: uploadedCount, n: uploadTotal })
              : phase === 'submitting'
                ? t('batch.start.submitting')
                : plan.reading
                  ? t('batch.start.reading')
                  : t('batch.start.button', { n: plan.covered })}
          </button>
          <p className="batch-note">{t('batch.summary.chargeNote')}</p>
          {error ? (
            <p className="batch-note is-error" role="alert" data-testid="batch-error">
              {error}
            </p>
          ) : null}
        </div>
      </aside>
      <section className="batch-photos" aria-label={t('batch.photos.title')}>
        {items.length ? (
          <>
            <div className="batch-grid-head">
              <h2 className="batch-section-title">{t('batch.photos.count', { n: items.length })}</h2>
              <button type="button" className="btn btn-ghost btn-sm" onClick={clear} disabled={busy} data-testid="batch-clear">
                {t('batch.photos.clear')}
              </button>
            </div>
            <ul className="batch-grid" data-testid="batch-grid">
              {items.map((item, i) => (
                <LocalPhotoCard
                  key={item.key}
                  position={i}
                  name={item.file.name}
                  previewUrl={item.previewUrl}
                  plan={plan.photos[i]!}
                  upload={item.upload}
                  scale={options.scale}
                  busy={busy}
                  onRemove={() => remove(item.key)}
                />
              ))}
            </ul>
          </>
        ) : (
          <p className="batch-empty">{t('batch.photos.empty')}</p>
        )}
      </section>
    </div>
  );
}
