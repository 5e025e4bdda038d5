import { useId, useState, type ReactNode } from 'react';
import './ui.css';

export interface AccordionItem {
  value: string;
  title: ReactNode;
  content: ReactNode;
}

/**
 * Accessible accordion with one item open at a time (WAI-ARIA accordion pattern): each header is a
 * button with aria-expanded inside a heading; opening one closes the other; the open one can be closed.
 */
export function Accordion({ items, defaultValue = null, testId }: { items: AccordionItem[]; defaultValue?: string | null; testId?: string }) {
  const base = useId();
  const [open, setOpen] = useState<string | null>(defaultValue);
  return (
    <div className="ui-accordion" data-testid={testId}>
      {items.map((item) => {
        const expanded = open === item.value;
        const headId = `${base}-h-${item.value}`;
        const panelId = `${base}-p-${item.value}`;
        return (
          <div key={item.value} className="ui-accordion-item" data-state={expanded ? 'open' : 'closed'}>
            <h3 className="ui-accordion-heading">
              <button type="button" id={headId} className="ui-accordion-trigger" aria-expanded={expanded} aria-controls={panelId} onClick={() => setOpen(expanded ? null : item.value)} data-testid={testId ? `${testId}-${item.value}` : undefined}>
                <span>{item.title}</span>
                <span className="ui-accordion-chevron" aria-hidden="true">
                  ▾
                </span>
              </button>
            </h3>
            <div id={panelId} role="region" aria-labelledby={headId} className="ui-accordion-panel" hidden={!expanded}>
              {item.content}
            </div>
          </div>
        );
      })}
    </div>
  );
}
