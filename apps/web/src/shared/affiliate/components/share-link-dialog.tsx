import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { AffiliateLinkBox } from './affiliate-link-box';

export interface ShareLinkDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** `<prefix>-share-dialog`; the copy box inside is `<prefix>-share-link` / `-share-copy`. */
  testIdPrefix: string;
}

/**
 * The share-link popup (001 §1/§2/§9): the reward sentence — half of the credits a person buys through
 * the link, as bonus credits — and the copy box. Only shown when the programme is enabled; the caller
 * decides (see {@link ShareLinkButton}).
 */
export function ShareLinkDialog({ open, onOpenChange, testIdPrefix }: ShareLinkDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('affiliate.popupTitle')}
      description={t('affiliate.reward')}
      size="md"
      testId={`${testIdPrefix}-share-dialog`}
      closeLabel={t('common.close')}
    >
      <div className="aff-dialog-body">
        <AffiliateLinkBox testIdPrefix={`${testIdPrefix}-share`} active={open} />
        <p className="aff-dialog-note">{t('affiliate.popupNote')}</p>
      </div>
    </Dialog>
  );
}
