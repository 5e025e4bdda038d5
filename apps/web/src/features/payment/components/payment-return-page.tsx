import { PACK_IDS } from '@dewy/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { useCheckoutPoll } from '../hooks/use-checkout-poll';

/**
 * /payment/{plan} (spec 000 §2), deciding on what the server knows, never on the query string alone:
 * - payment=cancelled → /pricing (the one-time tab for a pack) with the cancelled message;
 * - payment=success → polls the checkout (`?checkout=`, else `latest`): completed → forced session sync,
 *   /mypage?payment=success with the completed message; failed → the failed page; still pending,
 *   unknown or signed out → home with the processing message;
 * - anything else → home with the processing message.
 */
export function PaymentReturnPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  const { plan } = useParams();
  const navigate = useNavigate();
  const { user, status, forceSync } = useSession();
  const done = useRef(false);
  const payment = params.get('payment');
  const checkoutId = params.get('checkout') || 'latest';
  const authReady = status !== 'loading';
  const { outcome } = useCheckoutPoll(checkoutId, payment === 'success' && authReady && Boolean(user));

  useEffect(() => {
    if (done.current) return;
    const pricing = PACK_IDS.includes(plan as (typeof PACK_IDS)[number]) ? `${lp('/pricing')}?tab=credits` : lp('/pricing');
    const processing = () => {
      notify.info(t('payment.processing'));
      void navigate(lp('/'), { replace: true });
    };
    const cancelled = () => {
      notify.info(t('payment.cancelled'));
      void navigate(pricing, { replace: true });
    };

    if (payment === 'cancelled') {
      done.current = true;
      cancelled();
      return;
    }
    if (payment !== 'success') {
      done.current = true;
      processing();
      return;
    }
    if (!authReady) return;
    if (!user) {
      // Signed out: the checkout cannot be asked about; never claim it completed.
      done.current = true;
      processing();
      return;
    }
    if (!outcome) return;
    done.current = true;
    if (outcome.kind === 'settled' && outcome.checkout.status === 'completed') {
      void forceSync().finally(() => {
        notify.success(t('payment.completed'));
        void navigate(`${lp('/mypage')}?payment=success`, { replace: true });
      });
    } else if (outcome.kind === 'settled' && outcome.checkout.status === 'failed') {
      void navigate(`${lp('/payment/failed')}?checkout=${encodeURIComponent(outcome.checkout.checkoutId)}`, { replace: true });
    } else if (outcome.kind === 'settled' && outcome.checkout.status === 'cancelled') {
      cancelled();
    } else {
      processing();
    }
  }, [payment, plan, authReady, user, outcome, forceSync, t, lp, navigate]);

  return (
    <div className="center-screen" aria-busy="true" data-testid="payment-return">
      <div className="spinner" />
      <p>{payment === 'success' ? t('payment.checking') : t('payment.processing')}</p>
    </div>
  );
}
