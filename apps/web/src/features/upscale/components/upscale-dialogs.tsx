import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';

type Close = (open: boolean) => void;

/** Blocking dialog: scale ≠ 1 and scaled width+height ≥ 4000 (001 §5). */
export function BlockedDialog({ open, onOpenChange }: { open: boolean; onOpenChange: Close }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('upscale.blocked.title')}
      description={t('upscale.blocked.body')}
      testId="upscale-blocked-dialog"
      closeLabel={t('common.close')}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => onOpenChange(false)}>
          {t('common.ok')}
        </button>
      }
    />
  );
}

/** Generation guide (001 §2): at least 1024×1024; large images are auto-resized. */
export function GuideDialog({ open, onOpenChange }: { open: boolean; onOpenChange: Close }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('upscale.guide.title')} size="md" testId="upscale-guide-dialog" closeLabel={t('common.close')}>
      <ul className="guide-list">
        <li>{t('upscale.guide.minSize')}</li>
        <li>{t('upscale.guide.scaleLimit')}</li>
        <li>{t('upscale.guide.autoResize')}</li>
        <li>{t('upscale.guide.formats')}</li>
        <li>{t('upscale.guide.badge')}</li>
        <li data-testid="upscale-guide-worst">{t('sizeBadge.guideWorst')}</li>
        <li>{t('upscale.guide.cost')}</li>
      </ul>
    </Dialog>
  );
}

/** Notice for images of 4000 px or more (width + height), 001 §2. */
export function LargeImageDialog({ open, onOpenChange }: { open: boolean; onOpenChange: Close }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('upscale.largeNotice.title')}
      description={t('upscale.largeNotice.body')}
      testId="upscale-large-dialog"
      closeLabel={t('common.close')}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => onOpenChange(false)}>
          {t('common.ok')}
        </button>
      }
    />
  );
}
