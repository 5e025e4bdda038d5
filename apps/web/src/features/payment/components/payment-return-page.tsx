import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';

/**
 * /payment/{plan} (spec 000 §2): payment=success → /mypage?payment=success with a completed message;
 * cancelled → /pricing with a cancelled message; anything else → home with a processing message.
 */
export function PaymentReturnPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const done = useRef(false);
  const payment = params.get('payment');

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    if (payment === 'success') {
      notify.success(t('payment.completed'));
      void navigate(`${lp('/mypage')}?payment=success`, { replace: true });
    } else if (payment === 'cancelled') {
      notify.info(t('payment.cancelled'));
      void navigate(lp('/pricing'), { replace: true });
    } else {
      notify.info(t('payment.processing'));
      void navigate(lp('/'), { replace: true });
    }
  }, [payment, t, lp, navigate]);

  return (
    <div className="center-screen" aria-busy="true" data-testid="payment-return">
      <div className="spinner" />
      <p>{t('payment.processing')}</p>
    </div>
  );
}
