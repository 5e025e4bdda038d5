import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './ui.css';

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
  testId?: string;
}

/**
 * Accessible tabs (WAI-ARIA tabs pattern, automatic activation): a tablist with roving focus (arrow
 * keys, Home, End) and one panel per tab; hidden panels stay mounted so their state is kept.
 */
export function Tabs({ items, value, onValueChange, label, className }: { items: TabItem[]; value: string; onValueChange: (value: string) => void; label: string; className?: string }) {
  const base = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = Math.max(0, items.findIndex((i) => i.value === value));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = items.length - 1;
    const next = e.key === 'ArrowRight' ? (index === last ? 0 : index + 1) : e.key === 'ArrowLeft' ? (index === 0 ? last : index - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : null;
    if (next === null) return;
    e.preventDefault();
    const item = items[next];
    if (!item) return;
    onValueChange(item.value);
    refs.current[next]?.focus();
  };

  return (
    <div className={className ? `ui-tabs ${className}` : 'ui-tabs'}>
      <div role="tablist" aria-label={label} className="ui-tablist" onKeyDown={onKeyDown}>
        {items.map((item, i) => {
          const selected = i === index;
          return (
            <button
              key={item.value}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${item.value}`}
              aria-selected={selected}
              aria-controls={`${base}-panel-${item.value}`}
              tabIndex={selected ? 0 : -1}
              className="ui-tab"
              data-state={selected ? 'active' : 'inactive'}
              data-testid={item.testId}
              onClick={() => onValueChange(item.value)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item, i) => (
        <div key={item.value} role="tabpanel" id={`${base}-panel-${item.value}`} aria-labelledby={`${base}-tab-${item.value}`} hidden={i !== index} tabIndex={0} className="ui-tabpanel">
          {item.content}
        </div>
      ))}
    </div>
  );
}
