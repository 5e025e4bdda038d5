import * as RadixSlider from '@radix-ui/react-slider';
import type { ReactNode } from 'react';
import './ui.css';

/** A limit drawn on the track: a marker with its label, and the range beyond it shown as not allowed. */
export interface SliderLimit {
  value: number;
  label: string;
}

export interface RangeSliderProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  disabled?: boolean;
  /** Text shown beside the label, e.g. '×1.2'. */
  display?: string;
  /** Read by assistive tech instead of the bare number (e.g. '×1.1, over this photo's limit'). */
  valueText?: string;
  /** Marks the largest value allowed in this context (values above it stay selectable). */
  limit?: SliderLimit | null;
  /** Explanation under the slider (also its accessible description). */
  hint?: ReactNode;
  hintTone?: 'info' | 'warn';
  testId?: string;
}

/** Thumb size in px (ui.css .ui-slider-thumb): Radix keeps the thumb inside the track by this much. */
const THUMB_PX = 20;

/** CSS `left` of a value's point, matching where Radix centres the thumb for it. */
function pointLeft(value: number, min: number, max: number): string {
  const pct = ((value - min) / (max - min)) * 100;
  const half = THUMB_PX / 2;
  return `calc(${pct}% + ${half - (pct / 50) * half}px)`;
}

/** Labelled single-thumb slider on Radix Slider, with an optional limit marker and hint. */
export function RangeSlider({ label, value, min, max, step, onChange, disabled, display, valueText, limit, hint, hintTone = 'info', testId }: RangeSliderProps) {
  const showLimit = limit && limit.value < max && limit.value >= min;
  const hintId = testId ? `${testId}-hint` : undefined;
  return (
    <div className={`ui-field ${disabled ? 'ui-disabled' : ''}`}>
      <div className="ui-field-row">
        <span className="ui-field-label">{label}</span>
        <span className="ui-field-value" data-testid={testId ? `${testId}-value` : undefined}>
          {display ?? value}
        </span>
      </div>
      <RadixSlider.Root
        className={`ui-slider ${showLimit ? 'has-limit' : ''}`}
        value={[value]}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onValueChange={(v) => onChange(Number((Math.round((v[0] ?? min) / step) * step).toFixed(6)))}
        data-testid={testId}
      >
        <RadixSlider.Track className="ui-slider-track">
          <RadixSlider.Range className="ui-slider-range" />
        </RadixSlider.Track>
        {showLimit ? (
          <>
            <span className="ui-slider-over" style={{ left: pointLeft(limit.value, min, max) }} aria-hidden="true" />
            <span className="ui-slider-limit" style={{ left: pointLeft(limit.value, min, max) }} aria-hidden="true" data-testid={testId ? `${testId}-limit` : undefined} data-value={limit.value}>
              <span className="ui-slider-limit-label">{limit.label}</span>
            </span>
          </>
        ) : null}
        <RadixSlider.Thumb className="ui-slider-thumb" aria-label={label} aria-valuetext={valueText} aria-describedby={hint ? hintId : undefined} />
      </RadixSlider.Root>
      {hint ? (
        <p className={`ui-field-hint ui-field-hint-${hintTone}`} id={hintId} data-testid={hintId} role={hintTone === 'warn' ? 'status' : undefined}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
