import { useRef, type KeyboardEvent } from 'react';
import './ui.css';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  testId?: string;
}

/**
 * A small set of mutually exclusive choices shown side by side (WAI-ARIA radio group pattern): one
 * tab stop, arrow keys (and Home/End) move the choice and the focus, the chosen option is
 * `aria-checked`. For a setting that changes what the page shows (the pricing page's currency).
 */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onValueChange,
  className,
  testId,
}: {
  /** The group's accessible name. */
  label: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onValueChange: (value: T) => void;
  className?: string;
  testId?: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = Math.max(0, options.findIndex((o) => o.value === value));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = options.length - 1;
    const forward = e.key === 'ArrowRight' || e.key === 'ArrowDown';
    const back = e.key === 'ArrowLeft' || e.key === 'ArrowUp';
    const next = forward ? (index === last ? 0 : index + 1) : back ? (index === 0 ? last : index - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : null;
    if (next === null) return;
    e.preventDefault();
    const option = options[next];
    if (!option) return;
    onValueChange(option.value);
    refs.current[next]?.focus();
  };

  return (
    <div role="radiogroup" aria-label={label} className={className ? `ui-segmented ${className}` : 'ui-segmented'} onKeyDown={onKeyDown} data-testid={testId}>
      {options.map((o, i) => {
        const checked = i === index;
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            className="ui-segment"
            data-state={checked ? 'on' : 'off'}
            data-testid={o.testId}
            onClick={() => onValueChange(o.value)}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
