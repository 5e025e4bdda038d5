import type { SizeBadge as Badge } from '@dewy/contracts';
import { useId } from 'react';
import { useBatchTranslation } from '../lib/i18n';

const BADGE_CLASS: Record<Badge, string> = { 'BEST!': 'badge-best', NORMAL: 'badge-normal', 'WORST!': 'badge-worst' };

/**
 * The size badge of the single workspace (001 §5: BEST! / NORMAL / WORST! from the output's width +
 * height), with the same tooltip words (`sizeBadge.tooltip.*`); focusable, so a tap or the keyboard
 * shows the tooltip too.
 */
export function SizeBadge({ badge, sum }: { badge: Badge; sum: number }) {
  const { t } = useBatchTranslation();
  const tipId = useId();
  return (
    <span className="size-badge-wrap">
      <span className={`size-badge ${BADGE_CLASS[badge]}`} data-testid="batch-card-badge" tabIndex={0} aria-describedby={tipId}>
        {badge}
      </span>
      <span className="size-badge-tip" role="tooltip" id={tipId}>
        {t(`sizeBadge.tooltip.${badge}`, { sum })}
      </span>
    </span>
  );
}
