import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { DROPDOWN_CLOSE_DELAY_MS } from '@dewy/contracts';
import { Icon, type IconName } from '../../components/ui/icons';
import { useImageGenerationEnabled } from '../../lib/feature-flags';
import { useLocale } from '../../lib/use-locale';

interface Tool {
  path: string;
  key: 'upscale' | 'imageGeneration' | 'imageEdit' | 'faceEdit';
  icon: IconName;
}

const BASE_TOOLS: Tool[] = [
  { path: '/upscale', key: 'upscale', icon: 'sparkle' },
  { path: '/image-edit', key: 'imageEdit', icon: 'brush' },
  { path: '/face-edit', key: 'faceEdit', icon: 'face' },
];
const GENERATION: Tool = { path: '/image-generation', key: 'imageGeneration', icon: 'palette' };

/**
 * The AI-feature dropdown (spec 000 §2): hover opens it on pointer devices (closing 160 ms after the
 * pointer leaves), a tap toggles it on touch devices, and any route change closes it.
 */
export function AiMenu() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const location = useLocation();
  const { enabled } = useImageGenerationEnabled();
  // The menu is open for the location it was opened on: a route change closes it without an effect.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const closeTimer = useRef<number | undefined>(undefined);
  const rootRef = useRef<HTMLDivElement>(null);

  const tools = enabled ? [BASE_TOOLS[0]!, GENERATION, ...BASE_TOOLS.slice(1)] : BASE_TOOLS;

  const cancelClose = () => window.clearTimeout(closeTimer.current);
  const openNow = () => {
    cancelClose();
    setOpenAt(location.key);
  };
  const closeSoon = () => {
    cancelClose();
    closeTimer.current = window.setTimeout(() => setOpenAt(null), DROPDOWN_CLOSE_DELAY_MS);
  };

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpenAt(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpenAt(null);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div
      className="ai-menu"
      ref={rootRef}
      onPointerEnter={(e) => {
        if (e.pointerType === 'mouse') openNow();
      }}
      onPointerLeave={(e) => {
        if (e.pointerType === 'mouse') closeSoon();
      }}
    >
      <button
        type="button"
        className={`nav-link ai-menu-trigger ${open ? 'is-open' : ''}`}
        aria-expanded={open}
        aria-haspopup="true"
        data-testid="ai-menu-trigger"
        onClick={() => (open ? setOpenAt(null) : openNow())}
      >
        {t('nav.aiTools')}
        <span className="ai-menu-pill" data-testid="ai-menu-count">
          {t('nav.toolCount', { n: tools.length })}
        </span>
        <span aria-hidden="true" className="ai-menu-caret">
          ▾
        </span>
      </button>
      {open ? (
        <div className="ai-menu-panel" role="menu" data-testid="ai-menu">
          {tools.map((tool) => (
            <Link key={tool.path} to={lp(tool.path)} className="ai-menu-item" role="menuitem" data-testid={`ai-menu-item-${tool.path.slice(1)}`}>
              <span className="ai-menu-icon">
                <Icon name={tool.icon} size={20} />
              </span>
              <span className="ai-menu-text">
                <span className="ai-menu-name">
                  {t(`tools.${tool.key}.name`)}
                  <span className="ai-menu-category">{t(`tools.${tool.key}.category`)}</span>
                </span>
                <span className="ai-menu-desc">{t(`tools.${tool.key}.description`)}</span>
              </span>
            </Link>
          ))}
        </div>
      ) : null}
    </div>
  );
}
