import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { COMMUNITY_URL } from '../lib/config';

/** What counts as a control the button must not sit on (issue 17). */
const CONTROL = 'a[href], button, input, select, textarea, label, [role=slider], [role=button], [role=tab], [role=switch], [role=checkbox]';

/**
 * True when a control of the page lies right under `el`: sampled on a 3×3 grid over its box (edges and
 * middle), looking at the topmost element beneath it (the tool pages' run bar, which docks the button,
 * is not a control).
 */
function coversControl(el: HTMLElement): boolean {
  const r = el.getBoundingClientRect();
  // Edges 1 px inside the box as well as its middle: a control just touching the button counts.
  const xs = [r.left + 1, r.left + r.width / 2, r.right - 1];
  const ys = [r.top + 1, r.top + r.height / 2, r.bottom - 1];
  for (const x of xs) {
    for (const y of ys) {
      const stack = document.elementsFromPoint(x, y);
      const under = stack.find((node) => node !== el && !el.contains(node));
      if (under?.closest(CONTROL)) return true;
    }
  }
  return false;
}

/**
 * Floating button to the community chat server, new tab (spec 000 §2). It never covers a control
 * (issue 17): on phones the tool pages' run bar docks it (layout.css), and anywhere a link or button
 * scrolls under it, it steps aside (fades out, lets clicks through) until the spot is free again.
 */
export function CommunityButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const ref = useRef<HTMLAnchorElement>(null);
  const [aside, setAside] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof document.elementsFromPoint !== 'function') return;
    let frame = 0;
    const check = () => {
      frame = 0;
      setAside(coversControl(el));
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(check);
    };
    schedule();
    // Content also moves without a scroll (a page loading, a panel opening): the page's size changing
    // says so at once; a look every 0.7 s catches the rest.
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    resize?.observe(document.body);
    const timer = window.setInterval(schedule, 700);
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      resize?.disconnect();
      window.clearInterval(timer);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [pathname]);

  return (
    <a
      ref={ref}
      className={`community-fab${aside ? ' is-aside' : ''}`}
      href={COMMUNITY_URL}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('community.label')}
      title={t('community.label')}
      data-testid="community-button"
      data-aside={aside ? 'true' : undefined}
    >
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-4.5 3.6A.5.5 0 0 1 4 21.2V18a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm4 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm4 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm4 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"
        />
      </svg>
    </a>
  );
}
