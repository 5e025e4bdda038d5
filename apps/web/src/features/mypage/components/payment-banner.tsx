import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/icons';

/** The success banner of `?payment=success` (001 §2), with a close button. */
export function PaymentBanner({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mypage-banner" role="status" data-testid="mypage-payment-success">
      <Icon name="check" size={22} />
      <p>{t('mypage.paymentSuccess')}</p>
      <button type="button" className="ui-icon-button" onClick={onClose} aria-label={t('mypage.dismiss')} data-testid="mypage-payment-dismiss">
        ×
      </button>
    </div>
  );
}
