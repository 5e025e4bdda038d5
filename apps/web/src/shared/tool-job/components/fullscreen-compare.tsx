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
}

/** Fullscreen before/after overlay of a result. */
export function FullscreenCompare({ open, onOpenChange, before, after, afterAlt, testIdPrefix }: FullscreenCompareProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('toolJob.result.fullscreen')} size="full" testId={`${testIdPrefix}-fullscreen-dialog`} closeLabel={t('common.close')}>
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
