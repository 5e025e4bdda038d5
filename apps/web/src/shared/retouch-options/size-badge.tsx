import type { SizeBadge } from '@dewy/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './size-badge.css';

const BADGE_CLASS: Record<SizeBadge, string> = { 'BEST!': 'badge-best', NORMAL: 'badge-normal', 'WORST!': 'badge-worst' };

/**
 * The size badge of 001 §2 (BEST! / NORMAL / WORST! from the output's width + height) with a tooltip
 * that says what it means (issue 17, `sizeBadge.tooltip.*`); focusable, so a tap or the keyboard shows
 * the tooltip too. The workspace's generate bar and the batch page's cards show it.
 * @param sum the output's width + height (px)
 * @param testId the badge's test id; its tooltip's is `<testId>-tip`
 */
export function SizeBadgeChip({ badge, sum, testId }: { badge: SizeBadge; sum: number; testId: string }) {
  const { t } = useTranslation();
  const tipId = useId();
  return (
    <span className="size-badge-wrap">
      <span className={`size-badge ${BADGE_CLASS[badge]}`} data-testid={testId} tabIndex={0} aria-describedby={tipId}>
        {badge}
      </span>
      <span className="size-badge-tip" role="tooltip" id={tipId} data-testid={`${testId}-tip`}>
        {t(`sizeBadge.tooltip.${badge}`, { sum })}
      </span>
    </span>
  );
}
