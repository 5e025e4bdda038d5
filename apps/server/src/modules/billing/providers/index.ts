import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../../config';
import type { Database } from '../../../db/client';
import type { PaymentsProvider } from '../payments-provider';
import { createLemonSqueezyProvider } from './lemonsqueezy.provider';
import { createPaddleProvider } from './paddle.provider';
import { createSandboxProvider } from './sandbox.provider';
import { createStripeProvider } from './stripe.provider';

/**
 * The payments provider chosen by PAYMENTS_PROVIDER (GUIDE §1), or null when that provider lacks a
 * required setting: then every payment call answers PAYMENTS_NOT_CONFIGURED and nothing is charged.
 * A provider that is not configured is never replaced by another one.
 */
export function createPaymentsProvider(config: AppConfig, deps: { database: Database; secret: string; log: FastifyBaseLogger }): PaymentsProvider | null {
  const p = config.payments;
  if (!p.configured) {
    deps.log.warn({ provider: p.provider, missing: p.missing }, 'payments provider is not configured: buying is off');
    return null;
  }
  switch (p.provider) {
    case 'sandbox': {
      if (config.env === 'production') deps.log.warn('PAYMENTS_PROVIDER=sandbox in production: purchases are free test payments');
      // Its own key, derived from the app secret unless set, so a leaked webhook secret is not the app's.
      const secret = p.sandbox.webhookSecret ?? createHmac('sha256', deps.secret).update('sandbox-webhook').digest('hex');
      return createSandboxProvider({
        database: deps.database,
        secret,
        log: deps.log,
        prices: config.payments.prices,
      });
    }
    case 'lemonsqueezy':
      return createLemonSqueezyProvider(p.lemonsqueezy);
    case 'stripe':
      return createStripeProvider(p.stripe);
    case 'paddle':
      // Each transaction's checkout link is our checkout page (GET /payment/paddle-checkout).
      return createPaddleProvider(p.paddle, { publicUrl: config.publicUrl });
  }
}
