import * as RadixSlider from '@radix-ui/react-slider';
import './ui.css';

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
  testId?: string;
}

/** Labelled single-thumb slider on Radix Slider. */
export function RangeSlider({ label, value, min, max, step, onChange, disabled, display, testId }: RangeSliderProps) {
  return (
    <div className={`ui-field ${disabled ? 'ui-disabled' : ''}`}>
      <div className="ui-field-row">
        <span className="ui-field-label">{label}</span>
        <span className="ui-field-value" data-testid={testId ? `${testId}-value` : undefined}>
          {display ?? value}
        </span>
      </div>
      <RadixSlider.Root
        className="ui-slider"
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
        <RadixSlider.Thumb className="ui-slider-thumb" aria-label={label} />
      </RadixSlider.Root>
    </div>
  );
}
