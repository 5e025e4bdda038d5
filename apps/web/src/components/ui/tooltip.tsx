import { useId, useState, type ReactNode } from 'react';
import './ui.css';

/**
 * A tooltip that also works on a disabled button (which gets no pointer or focus events itself): the
 * wrapper is focusable and describes itself with the tip (aria-describedby); the tip shows on hover,
 * keyboard focus and tap, and Escape hides it.
 */
export function Tooltip({ content, children, testId, block = false }: { content: ReactNode; children: ReactNode; testId?: string; block?: boolean }) {
  const id = useId();
  const [hidden, setHidden] = useState(false);
  return (
    <span
      className={`ui-tooltip${block ? ' ui-tooltip-block' : ''}${hidden ? ' is-dismissed' : ''}`}
      tabIndex={0}
      aria-describedby={id}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setHidden(true);
      }}
      onPointerEnter={() => setHidden(false)}
      onFocus={() => setHidden(false)}
    >
      {children}
      <span role="tooltip" id={id} className="ui-tooltip-bubble" data-testid={testId}>
        {content}
      </span>
    </span>
  );
}
