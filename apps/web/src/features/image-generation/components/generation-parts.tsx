import { IMAGE_GENERATION, type GenerationAspectRatio } from '@dewy/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';

/** 002 §2: the aspect-ratio picker (1x1 default, 3x4, 9x16, 4x3, 16x9, 2x3, 3x2). */
export function AspectPicker({ value, onChange, disabled }: { value: GenerationAspectRatio; onChange: (v: GenerationAspectRatio) => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <fieldset className="gen-field" disabled={disabled}>
      <legend>{t('imageGeneration.aspect.label')}</legend>
      <div className="gen-chips" role="radiogroup" aria-label={t('imageGeneration.aspect.label')}>
        {IMAGE_GENERATION.aspectRatios.map((r) => {
          const [w, h] = r.split('x').map(Number) as [number, number];
          return (
            <button
              key={r}
              type="button"
              role="radio"
              aria-checked={value === r}
              className={`gen-chip${value === r ? ' is-on' : ''}`}
              onClick={() => onChange(r)}
              data-testid={`gen-aspect-${r}`}
            >
              <span className="gen-ratio-box" style={{ aspectRatio: `${w} / ${h}` }} aria-hidden="true" />
              {r.replace('x', ':')}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** 002 §2/§5: the image-count picker, 1 to 4 (default 4). */
export function CountPicker({ value, onChange, disabled }: { value: number; onChange: (v: number) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const counts = Array.from({ length: IMAGE_GENERATION.count.max - IMAGE_GENERATION.count.min + 1 }, (_, i) => IMAGE_GENERATION.count.min + i);
  return (
    <fieldset className="gen-field" disabled={disabled}>
      <legend>{t('imageGeneration.count.label')}</legend>
      <div className="gen-chips" role="radiogroup" aria-label={t('imageGeneration.count.label')}>
        {counts.map((n) => (
          <button key={n} type="button" role="radio" aria-checked={value === n} className={`gen-chip gen-count${value === n ? ' is-on' : ''}`} onClick={() => onChange(n)} data-testid={`gen-count-${n}`}>
            {n}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** The prompt-lock popup (002 §4): with a reference image the prompt comes from the image. */
export function PromptLockDialog({ open, onOpenChange, onRemoveReference }: { open: boolean; onOpenChange: (o: boolean) => void; onRemoveReference: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('imageGeneration.lock.title')}
      description={t('imageGeneration.lock.body')}
      testId="gen-lock-dialog"
      closeLabel={t('common.close')}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={() => onOpenChange(false)}>
            {t('imageGeneration.lock.keep')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              onRemoveReference();
              onOpenChange(false);
            }}
            data-testid="gen-lock-remove"
          >
            {t('imageGeneration.lock.remove')}
          </button>
        </>
      }
    />
  );
}

/** The "Locked" badge beside a prompt field while a reference image locks the prompt (002 §4). */
export function LockBadge({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <span className="ui-badge ui-badge-muted gen-lock-badge" data-testid={testId}>
      <svg viewBox="0 0 24 24" width="11" height="11" aria-hidden="true"><path d="M7 11V8a5 5 0 0 1 10 0v3M6 11h12v9H6z" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" /></svg>
      {t('imageGeneration.prompt.locked')}
    </span>
  );
}

/** The zoom overlay of one result (002 §2). */
export function ZoomDialog({ url, onClose }: { url: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={url !== null} onOpenChange={(o) => (o ? undefined : onClose())} title={t('imageGeneration.result.zoomTitle')} size="full" testId="gen-zoom" closeLabel={t('common.close')}>
      {url ? <img className="gen-zoom-img" src={url} alt={t('imageGeneration.result.alt')} /> : null}
    </Dialog>
  );
}

/**
 * The Edit tab (002 §4): an instruction, Apply (AI rewrite, 3 credits) and Restore (confirm, no refund).
 * While a reference image locks the prompt (`locked`), nothing here may change it: the instruction is
 * read-only, Apply and Restore are disabled, and a click on the tab's fields opens the lock popup
 * (`onLockedClick`) as the prompt box does (issue 28, point 3).
 */
export function EditPromptTab({
  busy,
  canRestore,
  locked,
  onApply,
  onRestore,
  onLockedClick,
}: {
  busy: boolean;
  canRestore: boolean;
  locked: boolean;
  onApply: (instruction: string) => void;
  onRestore: () => void;
  onLockedClick: () => void;
}) {
  const { t } = useTranslation();
  const [instruction, setInstruction] = useState('');
  return (
    <div className="gen-edit-tab" onClick={() => (locked ? onLockedClick() : undefined)} data-testid="gen-edit-wrap">
      <label className="gen-label" htmlFor="gen-instruction">
        {t('imageGeneration.edit.label')}
        {locked ? <LockBadge testId="gen-instruction-locked" /> : null}
      </label>
      <textarea
        id="gen-instruction"
        className="input gen-textarea"
        rows={3}
        value={instruction}
        readOnly={locked}
        onChange={(e) => setInstruction(e.target.value)}
        placeholder={t('imageGeneration.edit.placeholder')}
        data-testid="gen-instruction"
      />
      <div className="gen-edit-actions">
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy || locked} onClick={() => onApply(instruction)} data-testid="gen-apply">
          {busy ? t('imageGeneration.edit.applying') : t('imageGeneration.edit.apply', { cost: IMAGE_GENERATION.rewriteCost })}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" disabled={!canRestore || busy || locked} onClick={onRestore} data-testid="gen-restore">
          {t('imageGeneration.edit.restore')}
        </button>
      </div>
      <p className="gen-hint">{t('imageGeneration.edit.hint', { cost: IMAGE_GENERATION.rewriteCost })}</p>
    </div>
  );
}
