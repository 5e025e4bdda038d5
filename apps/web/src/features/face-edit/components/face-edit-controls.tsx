import { FACE_EDIT } from '@dewy/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/icons';
import { RangeSlider } from '../../../components/ui/range-slider';
import { RunButton } from '../../../shared/tool-job';

/** Gender (001 §2): female only; male is shown disabled as coming soon. */
export function GenderChoice() {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <div className="ui-field">
      <span className="ui-field-label" id={labelId}>
        {t('faceEdit.options.gender')}
      </span>
      <div className="segmented face-edit-gender" role="radiogroup" aria-labelledby={labelId}>
        <button type="button" role="radio" aria-checked="true" className="is-active" data-testid="face-edit-gender-female">
          {t('faceEdit.gender.female')}
        </button>
        <button type="button" role="radio" aria-checked="false" disabled data-testid="face-edit-gender-male">
          {t('faceEdit.gender.male')} <span className="ui-badge ui-badge-muted face-edit-soon">{t('common.comingSoon')}</span>
        </button>
      </div>
    </div>
  );
}

/** Strength slider 0–1, step 0.1 (001 §5), sent as `easy_value`. */
export function StrengthSlider({ value, onChange }: { value: number; onChange: (v: number) => void }) {
  const { t } = useTranslation();
  return (
    <RangeSlider
      label={t('faceEdit.options.strength')}
      value={value}
      min={FACE_EDIT.strength.min}
      max={FACE_EDIT.strength.max}
      step={FACE_EDIT.strength.step}
      display={value.toFixed(1)}
      hint={t('faceEdit.options.strengthHint')}
      onChange={onChange}
      testId="face-edit-strength"
    />
  );
}

/** The saved mask as the page knows it (null: none saved yet). */
export interface MaskSummary {
  painted: number;
  coverage: number;
  uploading: boolean;
  uploaded: boolean;
}

export interface MaskPanelProps {
  mask: MaskSummary | null;
  /** False without a photo (nothing to paint on) or while the photo uploads. */
  canEdit: boolean;
  onOpen: () => void;
}

/** The mask step: its state in words and the button that opens the mask editor. */
export function MaskPanel({ mask, canEdit, onOpen }: MaskPanelProps) {
  const { t } = useTranslation();
  const state = !mask ? 'none' : mask.uploading ? 'uploading' : mask.painted === 0 ? 'empty' : mask.uploaded ? 'saved' : 'unsaved';
  const percent = mask ? (mask.coverage < 0.001 ? '<0.1' : (mask.coverage * 100).toFixed(1)) : '0';
  const text = {
    none: canEdit ? t('faceEdit.mask.none') : t('faceEdit.mask.needImage'),
    uploading: t('faceEdit.mask.uploading'),
    empty: t('faceEdit.mask.empty'),
    saved: t('faceEdit.mask.saved', { percent }),
    unsaved: t('faceEdit.mask.unsaved'),
  }[state];
  return (
    <div className="face-edit-mask">
      <div className="ui-field-row">
        <span className="ui-field-label">{t('faceEdit.mask.title')}</span>
      </div>
      <p className={`face-edit-mask-status is-${state}`} role="status" data-testid="face-edit-mask-status" data-state={state}>
        {state === 'uploading' ? <span className="spinner spinner-sm" /> : state === 'saved' ? <Icon name="check" size={16} /> : null}
        <span>{text}</span>
      </p>
      <button type="button" className="btn btn-secondary btn-block face-edit-mask-open" onClick={onOpen} disabled={!canEdit} data-testid="face-edit-mask-open">
        <Icon name="brush" size={18} /> {mask ? t('faceEdit.mask.edit') : t('faceEdit.mask.open')}
      </button>
    </div>
  );
}

export interface RunBarProps {
  cost: number | null;
  balance: number;
  disabled: boolean;
  processing: boolean;
  insufficient: boolean;
  onRun: () => void;
}

/** Run button with its cost and the balance (001 §2/§5); sticky at the bottom on narrow screens. */
export function RunBar({ cost, balance, disabled, processing, insufficient, onRun }: RunBarProps) {
  const { t } = useTranslation();
  return (
    <div className="face-edit-sticky-bar" data-testid="face-edit-run-bar">
      <div className="generate-info">
        <span>{cost !== null ? t('faceEdit.run.costLine', { cost }) : t('faceEdit.run.costNeedsImage')}</span>
        <span className="generate-balance">
          {t('faceEdit.run.balance')} <strong data-testid="face-edit-balance">{balance.toLocaleString()}</strong>
        </span>
      </div>
      <RunButton
        label={t('faceEdit.run.button')}
        processingLabel={t('faceEdit.run.processing')}
        cost={cost}
        disabled={disabled}
        processing={processing}
        onRun={onRun}
        insufficient={insufficient}
        testIdPrefix="face-edit"
        buttonTestId="face-edit-run"
      />
    </div>
  );
}
