import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BillingHistoryResponseSchema,
  CancelSubscriptionResponseSchema,
  ChangePlanResponseSchema,
  CheckoutResponseSchema,
  CheckoutStatusResponseSchema,
  PackRequestSchema,
  PlanCheckoutRequestSchema,
  PlanRequestSchema,
  PricesResponseSchema,
  ReceiptResponseSchema,
  ResumeSubscriptionResponseSchema,
  SubscriptionStatusResponseSchema,
  WithdrawDowngradeResponseSchema,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requestLocale } from '../../lib/locale';
import { userOf } from '../../lib/request-user';
import { cancelSubscription, changePlan, checkoutStatus, prices, resumeSubscription, startCheckout, subscriptionStatus, withdrawDowngrade } from './billing.service';
import { handleWebhook, webhookErrorOf } from './billing.webhooks';
import { billingHistory, providerReceiptUrl, receipt } from './billing-history';
import { PaymentProviderError } from './payments-provider';

/** Checkouts a user may start per window (a human buys a few times an hour; a loop buys none). */
const CHECKOUTS_PER_HOUR = 30;

/** `:paymentId` of the receipt routes: a positive 32-bit integer (the billing_payments id). */
const PaymentIdParamsSchema = z.object({ paymentId: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The payment calls (spec 000 §7, 001 §7) and the one webhook route every provider posts to.
 * Everything but the webhook is the caller's own business only (`access: 'user'`, user id from the
 * session, never from the body).
 */
export function billingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const checkoutLimit = {
      max: CHECKOUTS_PER_HOUR,
      timeWindow: 3_600_000,
      hook: 'preHandler' as const,
      keyGenerator: (req: Parameters<typeof userOf>[0]) => `checkout:user:${userOf(req).id}`,
    };

    app.post(
      '/api/payment/checkout',
      { config: { access: 'user', rateLimit: checkoutLimit }, schema: { tags: ['payment'], body: PlanCheckoutRequestSchema, response: { 200: CheckoutResponseSchema } } },
      async (req) => startCheckout(ctx, userOf(req), { kind: 'plan', plan: req.body.plan }, requestLocale(req.headers, req.cookies), req.body.currency),
    );

    app.post(
      '/api/payment/credit-checkout',
      { config: { access: 'user', rateLimit: checkoutLimit }, schema: { tags: ['payment'], body: PackRequestSchema, response: { 200: CheckoutResponseSchema } } },
      async (req) => startCheckout(ctx, userOf(req), { kind: 'pack', pack: req.body.package }, requestLocale(req.headers, req.cookies), req.body.currency),
    );

    app.get(
      '/api/payment/prices',
      {
        config: { access: 'public' },
        schema: {
          tags: ['payment'],
          summary: 'Prices in dollars and won',
          description: 'The price of every plan and pack in USD (cents) and KRW (won), with the configured overrides, and the currencies a checkout can be opened in with the payment provider in use (issue 25).',
          response: { 200: PricesResponseSchema },
        },
      },
      async () => prices(ctx),
    );

    app.get(
      '/api/payment/checkout/:id',
      { config: { access: 'user' }, schema: { tags: ['payment'], params: z.object({ id: z.union([z.literal('latest'), z.string().uuid()]) }), response: { 200: CheckoutStatusResponseSchema } } },
      async (req) => checkoutStatus(ctx, userOf(req).id, req.params.id),
    );

    app.post(
      '/api/payment/change-plan',
      { config: { access: 'user' }, schema: { tags: ['payment'], body: PlanRequestSchema, response: { 200: ChangePlanResponseSchema } } },
      async (req) => changePlan(ctx, userOf(req), req.body.plan, requestLocale(req.headers, req.cookies)),
    );

    app.get('/api/payment/subscription-status', { config: { access: 'user' }, schema: { tags: ['payment'], response: { 200: SubscriptionStatusResponseSchema } } }, async (req) =>
      subscriptionStatus(ctx, userOf(req).id),
    );

    // The spec shows no request body for these two; an empty JSON object (or none) is accepted.
    const NoBody = z.object({}).strict().optional();
    app.post('/api/payment/cancel-subscription', { config: { access: 'user' }, schema: { tags: ['payment'], body: NoBody, response: { 200: CancelSubscriptionResponseSchema } } }, async (req) =>
      cancelSubscription(ctx, userOf(req)),
    );
    app.post('/api/payment/resume-subscription', { config: { access: 'user' }, schema: { tags: ['payment'], body: NoBody, response: { 200: ResumeSubscriptionResponseSchema } } }, async (req) =>
      resumeSubscription(ctx, userOf(req)),
    );

    // Not in the spec's call list (000 §7): added in the style of cancel/resume (decision 030).
    app.post(
      '/api/payment/withdraw-downgrade',
      {
        config: { access: 'user' },
        schema: {
          tags: ['payment'],
          summary: 'Withdraw a scheduled downgrade',
          description:
            'Removes the downgrade scheduled for the next billing cycle at the payment provider; the next renewal bills the current plan again and nothing is charged now. 409 NO_SCHEDULED_CHANGE when no downgrade is scheduled (nothing changes); 409 NO_SUBSCRIPTION / SUBSCRIPTION_ENDED; 502 PAYMENT_PROVIDER_ERROR.',
          body: NoBody,
          response: { 200: WithdrawDowngradeResponseSchema },
        },
      },
      async (req) => withdrawDowngrade(ctx, userOf(req), requestLocale(req.headers, req.cookies)),
    );

    // Ours (issue 25): the billing history of My Page and our printable receipt of one payment.
    app.get(
      '/api/billing/history',
      {
        config: { access: 'user' },
        schema: {
          tags: ['payment'],
          summary: 'Billing history',
          description: 'Every payment, renewal, failed charge and refund of the caller, newest first, 25 a page; `before` is the previous page\'s nextCursor.',
          querystring: z.object({ before: z.string().max(80).optional() }).strict(),
          response: { 200: BillingHistoryResponseSchema },
        },
      },
      async (req) => billingHistory(ctx, userOf(req).id, req.query.before),
    );
    app.get(
      '/api/billing/receipts/:paymentId',
      {
        config: { access: 'user' },
        schema: {
          tags: ['payment'],
          summary: 'Receipt of one payment',
          description: 'Our receipt of one of the caller\'s payments (404 for another account\'s, a failed or an open one).',
          params: PaymentIdParamsSchema,
          response: { 200: ReceiptResponseSchema },
        },
      },
      async (req) => receipt(ctx, userOf(req).id, req.params.paymentId),
    );
    app.get(
      '/api/billing/receipts/:paymentId/provider',
      {
        config: { access: 'user' },
        schema: {
          tags: ['payment'],
          summary: 'The provider\'s receipt of one payment',
          description: 'A 302 to a fresh link to the provider\'s own receipt (Paddle\'s invoice PDF, whose links expire), or to our receipt page when the provider has none; 404 for another account\'s, a failed or an open payment.',
          params: PaymentIdParamsSchema,
        },
      },
      async (req, reply) => {
        const url = await providerReceiptUrl(ctx, userOf(req).id, req.params.paymentId).catch((err: unknown) => {
          if (err instanceof PaymentProviderError) throw new AppError('PAYMENT_PROVIDER_ERROR', { message: err.message, cause: err });
          throw err;
        });
        const local = url.startsWith('/') ? `${requestLocale(req.headers, req.cookies) === 'en' ? '/en' : ''}${url}` : url;
        return reply.header('cache-control', 'no-store').redirect(local, 302);
      },
    );

    // The webhook reads its body raw: the signature covers the exact bytes the provider sent.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
      scope.post('/api/payment/webhook', { config: { access: 'public' }, schema: { tags: ['payment'], hide: true } }, async (req, reply) => {
        if (!ctx.payments) throw new AppError('PAYMENTS_NOT_CONFIGURED');
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        try {
          const r = await handleWebhook(ctx, ctx.payments, raw, req.headers);
          return reply.code(200).send({ received: true, outcome: r.outcome });
        } catch (err) {
          const mapped = webhookErrorOf(err);
          req.log.warn({ err, code: mapped.code }, 'payment webhook refused');
          throw mapped;
        }
      });
    });
  };
}
