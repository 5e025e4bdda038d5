import { useTranslation } from 'react-i18next';
import sampleAfter from '../../../assets/samples/korean-makeup-after.svg';
import sampleBefore from '../../../assets/samples/korean-makeup-before.svg';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';

/** The retouch sample shown before any upload, with its Sample and Preview badges (001 §2). */
export function SampleStage() {
  const { t } = useTranslation();
  return (
    <>
      <div className="stage-badges">
        <span className="ui-badge">{t('upscale.sample.sample')}</span>
        <span className="ui-badge ui-badge-muted">{t('upscale.sample.preview')}</span>
      </div>
      <ComparisonSlider
        leftImage={{ src: sampleBefore, alt: t('upscale.sample.beforeAlt'), label: t('common.before') }}
        rightImage={{ src: sampleAfter, alt: t('upscale.sample.afterAlt'), label: t('common.after') }}
        placeholder={
          <div className="stage-placeholder">
            <div className="spinner" />
          </div>
        }
        testId="upscale-sample-slider"
      />
      <p className="stage-caption">{t('upscale.sample.caption')}</p>
    </>
  );
}
