import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Currency } from '@dewy/contracts';
import type { MailProvider } from '../../src/providers/mail/mail.provider';
import { type PaymentsProvider, createLemonSqueezyProvider, createPaddleProvider, type SandboxProvider, createStripeProvider, operatorToken } from '../../src/modules/billing';
import { startFakeLemonSqueezy, type FakeLemonSqueezy, type FakeLsResource } from '../fakes/fake-lemonsqueezy.server';
import { startFakePaddle, type FakePaddle, type FakePaddlePrice } from '../fakes/fake-paddle.server';
import { startFakeStripe, type FakePaymentMethod, type FakeStripe, type FakeStripePrice } from '../fakes/fake-stripe.server';
import type { TestDatabaseKind } from './databases';
import { createTestApp, type TestApp } from './test-app';

/**
 * Shared setup of the billing suites (apps/server/src/modules/billing/*.test.ts): a test app on one
 * test database whose payments go through the sandbox, or through the Stripe, Lemon Squeezy or Paddle adapter
 * against its fake server, with the webhook-delivery and checkout helpers every such suite needs.
 * Each `start…BillingApp` is meant for a `beforeAll`; its `close` (for the `afterAll`) closes what it
 * started: the test app first, then the fake server.
 */

/** Our plans and packs → the Stripe price ids the fake knows (the adapter's `prices` setting). */
export const STRIPE_TEST_PRICES = {
  basic: 'price_basic', deluxe: 'price_deluxe', premium: 'price_premium',
  package1: 'price_pack1', package2: 'price_pack2', package3: 'price_pack3', package4: 'price_pack4', package5: 'price_pack5',
};

/** Our plans and packs → the Stripe won price ids the fake knows (the adapter's `pricesKrw`, STRIPE_PRICE_KRW_*). */
export const STRIPE_TEST_PRICES_KRW = {
  basic: 'price_basic_krw', deluxe: 'price_deluxe_krw', premium: 'price_premium_krw',
  package1: 'price_pack1_krw', package2: 'price_pack2_krw', package3: 'price_pack3_krw', package4: 'price_pack4_krw', package5: 'price_pack5_krw',
};

const month = { interval: 'month' as const };

/**
 * The Stripe fake's price table by price id: plans $9/$19/$29 a month, packs $5–$30 once; and the same
 * in won (KRW is zero-decimal: amounts in won), contracts' DEFAULT_PRICES: ₩12,600/₩26,600/₩40,600 a
 * month, packs ₩7,000–₩42,000 once.
 */
export const STRIPE_FAKE_PRICES: Record<string, FakeStripePrice> = {
  price_basic: { amount: 900, recurring: month }, price_deluxe: { amount: 1900, recurring: month }, price_premium: { amount: 2900, recurring: month },
  price_pack1: { amount: 500 }, price_pack2: { amount: 1000 }, price_pack3: { amount: 1500 }, price_pack4: { amount: 2000 }, price_pack5: { amount: 3000 },
  price_basic_krw: { amount: 12_600, currency: 'krw', recurring: month }, price_deluxe_krw: { amount: 26_600, currency: 'krw', recurring: month }, price_premium_krw: { amount: 40_600, currency: 'krw', recurring: month },
  price_pack1_krw: { amount: 7_000, currency: 'krw' }, price_pack2_krw: { amount: 14_000, currency: 'krw' }, price_pack3_krw: { amount: 21_000, currency: 'krw' },
  price_pack4_krw: { amount: 28_000, currency: 'krw' }, price_pack5_krw: { amount: 42_000, currency: 'krw' },
};

/** Our plans and packs → the Lemon Squeezy variant ids the fake knows (the adapter's `variants` setting). */
export const LS_TEST_VARIANTS = { basic: '101', deluxe: '102', premium: '103', package1: '201', package2: '202', package3: '203', package4: '204', package5: '205' };

/** The Lemon Squeezy fake's prices in cents by variant id; the 1xx variants are monthly subscriptions. */
export const LS_TEST_PRICES: Record<string, number> = { '101': 900, '102': 1900, '103': 2900, '201': 500, '202': 1000, '203': 1500, '204': 2000, '205': 3000 };

/** Starts `build()` after `started`, closing `started` again when `build()` throws (nothing is left running). */
async function orClose<T>(started: { close(): Promise<void> }, build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (e) {
    await started.close().catch(() => {});
    throw e;
  }
}

/** A test app paying through the Stripe adapter against a fake Stripe server. */
export interface StripeBillingApp {
  t: TestApp;
  fake: FakeStripe;
  /** The Stripe adapter the app uses (pointed at `fake.origin`). */
  payments: PaymentsProvider;
  /** Posts to /api/payment/webhook a Stripe-signed `type` event about the fake's current object `id`. */
  deliver(type: string, id: string): Promise<LightMyRequestResponse>;
  /** Closes the test app, then the fake server. */
  close(): Promise<void>;
}

/**
 * Starts a fake Stripe server with {@link STRIPE_FAKE_PRICES}, the Stripe adapter against it
 * ({@link STRIPE_TEST_PRICES}) and a test app on `kind` using it. `secretKey` / `webhookSecret` are
 * shared by the fake and the adapter (defaults are fine unless a suite checks them); `mail` replaces
 * the app's mail transport. `krw: true` configures the won prices too ({@link STRIPE_TEST_PRICES_KRW},
 * as STRIPE_PRICE_KRW_* would), with `krwMethods` as STRIPE_KRW_PAYMENT_METHODS (default: all six).
 */
export async function startStripeBillingApp(
  kind: TestDatabaseKind,
  opts: { secretKey?: string; webhookSecret?: string; mail?: MailProvider; krw?: boolean; krwMethods?: string[] } = {},
): Promise<StripeBillingApp> {
  const secretKey = opts.secretKey ?? 'sk_test_dewy_billing_fake_0001';
  const webhookSecret = opts.webhookSecret ?? 'whsec_dewy_billing_fake';
  const fake = await startFakeStripe({ secretKey, webhookSecret, prices: STRIPE_FAKE_PRICES });
  return orClose(fake, async () => {
    const payments = createStripeProvider({
      secretKey, webhookSecret, baseUrl: fake.origin, prices: STRIPE_TEST_PRICES,
      ...(opts.krw ? { pricesKrw: STRIPE_TEST_PRICES_KRW, krwMethods: opts.krwMethods } : {}),
    });
    const t = await createTestApp(kind, {}, { payments, mail: opts.mail });
    return {
      t,
      fake,
      payments,
      deliver(type, id) {
        const ev = fake.signedEvent(type, fake.object(id));
        return t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: ev.headers, payload: ev.body });
      },
      async close() {
        await t.close();
        await fake.close();
      },
    };
  });
}

/** The last Checkout Session id (`cs_…`) in a Stripe checkout URL. */
export const stripeSessionOf = (url: string) => [...url.matchAll(/cs_[A-Za-z0-9_]+/g)].at(-1)![0];

/**
 * Subscribes the signed-in `cookie` to `plan` through the Stripe fake: opens the checkout (in
 * `currency` when given), completes its session at the fake paying with `method` (default card) and
 * delivers `checkout.session.completed` (expects 200) and the first `invoice.paid` (expects
 * `granted`). @returns the session id and what the fake created.
 */
export async function subscribeThroughStripe(
  s: Pick<StripeBillingApp, 't' | 'fake' | 'deliver'>,
  cookie: string,
  plan: string,
  opts: { currency?: Currency; method?: FakePaymentMethod } = {},
) {
  const payload = opts.currency ? { plan, currency: opts.currency } : { plan };
  const r = await s.t.app.inject({ method: 'POST', url: '/api/payment/checkout', headers: { cookie }, payload });
  expect(r.statusCode, r.body).toBe(200);
  const session = stripeSessionOf(r.json().checkout_url as string);
  const done = s.fake.completeCheckout(session, { method: opts.method });
  expect((await s.deliver('checkout.session.completed', session)).statusCode).toBe(200);
  expect((await s.deliver('invoice.paid', done.invoiceId!)).json().outcome).toBe('granted');
  return { session, done };
}

/** A test app paying through the Lemon Squeezy adapter against a fake Lemon Squeezy store. */
export interface LemonSqueezyBillingApp {
  t: TestApp;
  fake: FakeLemonSqueezy;
  /** The Lemon Squeezy adapter the app uses (pointed at `fake.origin`). */
  payments: PaymentsProvider;
  /** Posts to /api/payment/webhook an LS-signed `eventName` webhook carrying `object`. */
  deliver(eventName: string, object: FakeLsResource): Promise<LightMyRequestResponse>;
  /** The id of the newest checkout the fake holds. */
  lastCheckout(): string;
  /** Closes the test app, then the fake server. */
  close(): Promise<void>;
}

/**
 * Starts a fake Lemon Squeezy store (API key `ls_key`, store 77, signing secret `ls_signing_secret`)
 * with {@link LS_TEST_PRICES}, the adapter against it ({@link LS_TEST_VARIANTS}) and a test app on
 * `kind` using it; `mail` replaces the app's mail transport.
 */
export async function startLemonSqueezyBillingApp(kind: TestDatabaseKind, opts: { mail?: MailProvider } = {}): Promise<LemonSqueezyBillingApp> {
  const fake = await startFakeLemonSqueezy({
    apiKey: 'ls_key', storeId: '77', signingSecret: 'ls_signing_secret',
    variants: Object.fromEntries(Object.entries(LS_TEST_PRICES).map(([id, price]) => [id, { price, subscription: id.startsWith('1') }])),
  });
  return orClose(fake, async () => {
    const payments = createLemonSqueezyProvider({ apiKey: 'ls_key', storeId: '77', webhookSecret: 'ls_signing_secret', baseUrl: fake.origin, variants: LS_TEST_VARIANTS });
    const t = await createTestApp(kind, {}, { payments, mail: opts.mail });
    return {
      t,
      fake,
      payments,
      deliver(eventName, object) {
        const { body, headers } = fake.signedWebhook(eventName, object);
        return t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body });
      },
      lastCheckout: () => [...fake.checkouts.keys()].at(-1)!,
      async close() {
        await t.close();
        await fake.close();
      },
    };
  });
}

/** Our plans and packs → the Paddle price ids the fake knows, in dollars (PADDLE_PRICE_*) and in won (PADDLE_PRICE_KRW_*). */
export const PADDLE_TEST_PRICES = {
  basic: 'pri_basic', deluxe: 'pri_deluxe', premium: 'pri_premium',
  package1: 'pri_pack1', package2: 'pri_pack2', package3: 'pri_pack3', package4: 'pri_pack4', package5: 'pri_pack5',
};
export const PADDLE_TEST_PRICES_KRW = {
  basic: 'pri_krw_basic', deluxe: 'pri_krw_deluxe', premium: 'pri_krw_premium',
  package1: 'pri_krw_pack1', package2: 'pri_krw_pack2', package3: 'pri_krw_pack3', package4: 'pri_krw_pack4', package5: 'pri_krw_pack5',
};

/** The Paddle fake's prices: plans $9/$19/$29 (₩12,600/₩26,600/₩40,600) a month, packs $5–$30 (₩7,000–₩42,000) once. */
export const PADDLE_FAKE_PRICES: Record<string, FakePaddlePrice> = Object.fromEntries([
  ...([['basic', 900, 12600], ['deluxe', 1900, 26600], ['premium', 2900, 40600]] as const).flatMap(([p, usd, krw]) => [
    [PADDLE_TEST_PRICES[p], { amount: usd, currency: 'USD', recurring: true }],
    [PADDLE_TEST_PRICES_KRW[p], { amount: krw, currency: 'KRW', recurring: true }],
  ]),
  ...([['package1', 500, 7000], ['package2', 1000, 14000], ['package3', 1500, 21000], ['package4', 2000, 28000], ['package5', 3000, 42000]] as const).flatMap(([p, usd, krw]) => [
    [PADDLE_TEST_PRICES[p], { amount: usd, currency: 'USD', recurring: false }],
    [PADDLE_TEST_PRICES_KRW[p], { amount: krw, currency: 'KRW', recurring: false }],
  ]),
]);

/** The test app's PUBLIC_URL (config's default, http://localhost:PORT): the Paddle checkout links point to its checkout page. */
export const PADDLE_TEST_PUBLIC_URL = 'http://localhost:5000';

/** A test app paying through the Paddle adapter against a fake Paddle API. */
export interface PaddleBillingApp {
  t: TestApp;
  fake: FakePaddle;
  /** The Paddle adapter the app uses (pointed at `fake.origin`, won prices configured). */
  payments: PaymentsProvider;
  /** Posts to /api/payment/webhook a Paddle-signed `eventType` event about the fake's current entity `id` (`eventId` to redeliver one). */
  deliver(eventType: string, id: string, opts?: { eventId?: string }): Promise<LightMyRequestResponse>;
  /** Closes the test app, then the fake server. */
  close(): Promise<void>;
}

/**
 * Starts a fake Paddle API with {@link PADDLE_FAKE_PRICES}, the Paddle adapter against it (dollar and
 * won prices) and a test app on `kind` using it, configured as PAYMENTS_PROVIDER=paddle in the sandbox
 * environment (so the checkout page is registered). `mail` replaces the app's mail transport.
 */
export async function startPaddleBillingApp(
  kind: TestDatabaseKind,
  opts: { apiKey?: string; webhookSecret?: string; clientToken?: string; mail?: MailProvider } = {},
): Promise<PaddleBillingApp> {
  const apiKey = opts.apiKey ?? 'pdl_sdbx_apikey_dewyfake0001';
  const webhookSecret = opts.webhookSecret ?? 'pdl_ntfset_dewyfake_secret';
  const clientToken = opts.clientToken ?? 'test_dewyfakeclienttoken0001';
  const fake = await startFakePaddle({ apiKey, webhookSecret, prices: PADDLE_FAKE_PRICES });
  return orClose(fake, async () => {
    const env: Record<string, string> = {
      PAYMENTS_PROVIDER: 'paddle', PADDLE_API_KEY: apiKey, PADDLE_WEBHOOK_SECRET: webhookSecret, PADDLE_CLIENT_TOKEN: clientToken,
      PADDLE_ENVIRONMENT: 'sandbox', PADDLE_BASE_URL: fake.origin,
      ...Object.fromEntries(Object.entries(PADDLE_TEST_PRICES).map(([k, v]) => [`PADDLE_PRICE_${k.toUpperCase()}`, v])),
      ...Object.fromEntries(Object.entries(PADDLE_TEST_PRICES_KRW).map(([k, v]) => [`PADDLE_PRICE_KRW_${k.toUpperCase()}`, v])),
    };
    const payments = createPaddleProvider({ apiKey, webhookSecret, baseUrl: fake.origin, prices: PADDLE_TEST_PRICES, pricesKrw: PADDLE_TEST_PRICES_KRW }, { publicUrl: PADDLE_TEST_PUBLIC_URL });
    const t = await createTestApp(kind, env, { payments, mail: opts.mail });
    return {
      t,
      fake,
      payments,
      deliver(eventType, id, o = {}) {
        const ev = fake.signedEvent(eventType, fake.object(id), { eventId: o.eventId });
        return t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: ev.headers, payload: ev.body });
      },
      async close() {
        await t.close();
        await fake.close();
      },
    };
  });
}

/** A test app on the default (sandbox) payments provider. */
export interface SandboxBillingApp {
  t: TestApp;
  /** The app's sandbox provider (`t.ctx.payments`). */
  sandbox: SandboxProvider;
  /** Closes the test app. */
  close(): Promise<void>;
}

/** Starts a test app on `kind` paying through the sandbox; `mail` replaces the app's mail transport. */
export async function startSandboxBillingApp(kind: TestDatabaseKind, opts: { mail?: MailProvider } = {}): Promise<SandboxBillingApp> {
  const t = await createTestApp(kind, {}, { mail: opts.mail });
  return { t, sandbox: t.ctx.payments as SandboxProvider, close: () => t.close() };
}

/** The `authorization` header value of the sandbox operator (POST /api/admin/billing/sandbox) of `t`. */
export const sandboxOperatorAuth = (t: TestApp) => `Bearer ${operatorToken(t.ctx.secret)}`;

/**
 * Submits the sandbox's hosted checkout form at `checkoutUrl` with `card` (default: the approved test
 * card) or another of its methods (`kakao_pay` … in won), and waits until the sandbox's webhooks are
 * delivered. @returns the form's answer (303 to the success or failed page).
 */
export async function paySandboxCheckout(t: TestApp, checkoutUrl: string, card = '4242 4242 4242 4242', method = 'card') {
  const form = await t.app.inject({
    method: 'POST',
    url: checkoutUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card, method, action: 'pay' }).toString(),
  });
  await (t.ctx.payments as SandboxProvider).idle();
  return form;
}
