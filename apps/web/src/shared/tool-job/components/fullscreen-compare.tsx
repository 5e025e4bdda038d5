import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';
import { Dialog } from '../../../components/ui/dialog';

export interface FullscreenCompareProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  before: string;
  after: string;
  afterAlt: string;
  /** `<prefix>-fullscreen-dialog`, `<prefix>-fullscreen-slider`. */
  testIdPrefix: string;
  /** Buttons under the comparison (My Page's viewer puts its download there). */
  actions?: ReactNode;
  /** Title instead of "Compare full screen". */
  title?: string;
}

/** Fullscreen before/after overlay of a result. */
export function FullscreenCompare({ open, onOpenChange, before, after, afterAlt, testIdPrefix, actions, title }: FullscreenCompareProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title ?? t('toolJob.result.fullscreen')} size="full" testId={`${testIdPrefix}-fullscreen-dialog`} closeLabel={t('common.close')} actions={actions}>
      <div className="fullscreen-slider">
        <ComparisonSlider
          leftImage={{ src: before, alt: t('toolJob.result.beforeAlt'), label: t('common.before') }}
          rightImage={{ src: after, alt: afterAlt, label: t('common.after') }}
          testId={`${testIdPrefix}-fullscreen-slider`}
        />
      </div>
    </Dialog>
  );
}
