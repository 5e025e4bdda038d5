import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatPrice, paymentMethodName } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requestLocale } from '../../lib/locale';
import { isAdmin } from '../../policies';
import { currentUser } from '../auth';
import { userByEmail } from './billing.service';
import { PaymentProviderError } from './payments-provider';
import { SANDBOX_CARD_OK, type SandboxProvider } from './providers/sandbox.provider';

/**
 * The sandbox provider's pages and operator controls (decision 012), registered only when
 * PAYMENTS_PROVIDER=sandbox:
 * - GET  /sandbox/checkout/{id} — the hosted checkout (item, amount, test card, Pay / Cancel);
 * - POST /sandbox/checkout/{id} — form submit (`card`, `action`=pay|cancel) → 303 to our return pages;
 * - GET|POST /sandbox/invoice/{id} — the update-payment page of a failed renewal (decision 030): the
 *   card is retried; paid → 303 to My Page, declined → the page again with the reason;
 * - POST /api/admin/billing/sandbox — renew, fail-renewal, refund, expire, advance (the test clock,
 *   `duration` such as `29d`, `12h`, `30m`) for a user, by the admin's session or the operator token
 *   (`npm run billing`, HMAC of the app secret; the CLI reads the same DATA_DIR secret as the server).
 */

/** The operator token the billing CLI sends (Bearer), derived from the app secret. */
export function operatorToken(appSecret: string): string {
  return createHmac('sha256', appSecret).update('billing-operator').digest('hex');
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const TEXT = {
  ko: { title: '샌드박스 결제', note: '테스트 결제입니다. 실제로 청구되지 않습니다.', method: '결제 수단', walletHint: '버튼을 누르면 이 결제 수단으로 승인됩니다 (테스트).', invalidMethod: '이 결제에서 쓸 수 없는 결제 수단입니다.', card: '카드 번호', pay: '결제', cancel: '취소', monthly: '월 구독', oneTime: '1회 구매', credits: '크레딧', hint: '4242 4242 4242 4242: 승인 · 4000 0000 0000 0002: 거절', invalid: '테스트 카드 번호가 아닙니다.', closed: '이 결제는 이미 처리되었습니다.', missing: '결제를 찾을 수 없습니다.', retryTitle: '결제 수단 업데이트', retryNote: '지난 구독 결제가 승인되지 않았습니다. 카드를 다시 입력해 결제하세요.', declined: '카드가 거절되었습니다. 다른 카드로 시도해주세요.' },
  en: { title: 'Sandbox checkout', note: 'Test payment: no real money is charged.', method: 'Payment method', walletHint: 'Pay approves the payment with this method (test).', invalidMethod: 'That payment method is not offered for this payment.', card: 'Card number', pay: 'Pay', cancel: 'Cancel', monthly: 'Monthly subscription', oneTime: 'One-time purchase', credits: 'credits', hint: '4242 4242 4242 4242: approved · 4000 0000 0000 0002: declined', invalid: 'That is not a test card number.', closed: 'This checkout has already been completed.', missing: 'Checkout not found.', retryTitle: 'Update payment method', retryNote: 'Your last subscription payment was declined. Enter a card to pay it now.', declined: 'The card was declined. Try another card.' },
};

function page(lang: 'ko' | 'en', body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${TEXT[lang].title}</title>
<style>body{font-family:system-ui,'Noto Sans KR',sans-serif;background:#f4f5f7;margin:0;display:grid;place-items:center;min-height:100vh;color:#1b1d21}
main{background:#fff;border-radius:14px;box-shadow:0 6px 30px #0001;padding:28px;width:min(420px,92vw);box-sizing:border-box}h1{font-size:20px;margin:0 0 4px}
.note{color:#8a5a00;background:#fff6e0;border-radius:8px;padding:8px 10px;font-size:13px}.row{display:flex;justify-content:space-between;align-items:baseline;gap:12px;margin:14px 0;font-size:15px}
.row>span:first-child{min-width:0;overflow-wrap:anywhere}.row>span:last-child{flex:none}
.amount{font-size:28px;font-weight:700}label{display:block;font-size:13px;margin:16px 0 6px}input{width:100%;box-sizing:border-box;font-size:16px;padding:10px;border:1px solid #ccd;border-radius:8px}
.hint{font-size:12px;color:#667}.err{color:#b00020;font-size:14px}.buttons{display:flex;gap:10px;margin-top:18px}button{flex:1;font-size:16px;padding:12px;border-radius:8px;border:0;cursor:pointer}
.pay{background:#3b5bfd;color:#fff}.cancel{background:#e8eaf0}
fieldset{border:0;padding:0;margin:16px 0 0}legend{font-size:13px;margin-bottom:6px}.methods{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:8px}
.methods label{margin:0;display:flex;align-items:center;gap:6px;border:1px solid #ccd;border-radius:8px;padding:9px 10px;font-size:14px;cursor:pointer}
.methods label:has(input:checked){border-color:#3b5bfd;background:#eef1ff}.methods input{width:auto;margin:0}
.wallet-hint{display:none}form:has(input[name=method]:not([value=card]):checked) .card-fields{display:none}
form:has(input[name=method]:not([value=card]):checked) .wallet-hint{display:block}</style></head><body><main>${body}</main></body></html>`;
}

function isOperator(req: FastifyRequest, secret: string): boolean {
  const h = req.headers.authorization;
  if (!h?.startsWith('Bearer ')) return false;
  const given = Buffer.from(h.slice(7));
  const want = Buffer.from(operatorToken(secret));
  return given.length === want.length && timingSafeEqual(given, want);
}

const DURATION_UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;
/** Longest single move of the test clock: a year (the sandbox renews at most 13 periods per move). */
const MAX_ADVANCE_MS = 366 * DURATION_UNIT_MS.d;

/**
 * A test-clock duration: a positive whole number and a unit, `d` (days), `h` (hours) or `m` (minutes),
 * e.g. `29d`, `12h`, `30m`; at most 366 days. @returns milliseconds, or null when malformed or too long.
 */
export function parseDuration(text: string): number | null {
  const m = /^([1-9]\d{0,6})([dhm])$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * DURATION_UNIT_MS[m[2] as keyof typeof DURATION_UNIT_MS];
  return ms <= MAX_ADVANCE_MS ? ms : null;
}

const OperatorRequest = z
  .object({
    action: z.enum(['renew', 'fail-renewal', 'refund', 'expire', 'status', 'advance']),
    email: z.string().email().max(320),
    /** An order / invoice id to refund (default: the user's latest paid one). */
    target: z.string().max(200).regex(/^sbx_(or|in)_[0-9a-f-]{36}$/).optional(),
    /** `advance`: how far the test clock moves (`29d`, `12h`, `30m`; at most 366 days). */
    duration: z
      .string()
      .max(20)
      .refine((v) => parseDuration(v) !== null, { message: 'duration must be a whole number of days, hours or minutes (e.g. 29d, 12h, 30m), at most 366d' })
      .optional(),
  })
  .strict()
  .refine((b) => b.action !== 'advance' || b.duration !== undefined, { message: 'advance needs a duration (e.g. 29d, 12h, 30m)', path: ['duration'] });

/** Registers the sandbox routes for `provider`; `secret` authorises the operator CLI. */
export function sandboxRoutes(ctx: AppContext, provider: SandboxProvider, secret: string): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    const render = async (req: FastifyRequest, id: string, error?: string) => {
      const lang = requestLocale(req.headers, req.cookies);
      const t = TEXT[lang];
      const view = await provider.checkoutView(id);
      if (!view) return { status: 404, html: page(lang, `<h1>${t.missing}</h1>`) };
      if (view.status !== 'open') return { status: 409, html: page(lang, `<h1>${t.closed}</h1>`) };
      const what = view.item.kind === 'plan' ? `${t.monthly} · ${view.item.plan}` : `${t.oneTime} · ${view.item.pack}`;
      const methods = view.methods
        .map((m, i) => `<label data-testid="sandbox-method-${m}"><input type="radio" name="method" value="${m}"${i === 0 ? ' checked' : ''}>${esc(paymentMethodName(m, lang))}</label>`)
        .join('');
      const body = `<h1>${t.title}</h1><p class="note">${t.note}</p>
<div class="row"><span data-testid="sandbox-item">${esc(what)}</span><span>${view.credits.toLocaleString('en-US')} ${t.credits}</span></div>
<div class="row"><span>${esc(view.email)}</span><span class="amount" data-testid="sandbox-amount">${esc(formatPrice(view.amountMinor, view.currency, lang))}</span></div>
<form method="post" action="/sandbox/checkout/${esc(view.id)}">
<fieldset><legend>${t.method}</legend><div class="methods">${methods}</div></fieldset>
<div class="card-fields"><label for="card">${t.card}</label><input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242" maxlength="23">
<p class="hint">${t.hint}</p></div><p class="hint wallet-hint">${t.walletHint}</p>${error ? `<p class="err" role="alert">${esc(error)}</p>` : ''}
<div class="buttons"><button class="cancel" name="action" value="cancel" data-testid="sandbox-cancel">${t.cancel}</button><button class="pay" name="action" value="pay" data-testid="sandbox-pay">${t.pay}</button></div></form>`;
      return { status: 200, html: page(lang, body) };
    };

    app.get<{ Params: { id: string } }>('/sandbox/checkout/:id', async (req, reply) => {
      const r = await render(req, req.params.id);
      return reply.code(r.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(r.html);
    });

    app.post<{ Params: { id: string }; Body: Record<string, string> }>('/sandbox/checkout/:id', async (req, reply) => {
      const form = (req.body ?? {}) as Record<string, string>;
      if (form.action === 'cancel') {
        const to = await provider.abandon(req.params.id);
        if (!to) return reply.code(404).send();
        return reply.redirect(to, 303);
      }
      const r = await provider.pay(req.params.id, String(form.card ?? SANDBOX_CARD_OK).slice(0, 40), String(form.method ?? 'card').slice(0, 40));
      if ('redirect' in r) return reply.redirect(r.redirect, 303);
      const lang = requestLocale(req.headers, req.cookies);
      const text = r.error === 'invalid_card' ? TEXT[lang].invalid : r.error === 'invalid_method' ? TEXT[lang].invalidMethod : TEXT[lang].closed;
      const again = await render(req, req.params.id, text);
      return reply.code(r.error === 'not_open' ? again.status : 400).type('text/html; charset=utf-8').send(again.html);
    });

    const renderInvoice = async (req: FastifyRequest, id: string, error?: string) => {
      const lang = requestLocale(req.headers, req.cookies);
      const t = TEXT[lang];
      const view = await provider.invoiceView(id);
      if (!view) return { status: 404, html: page(lang, `<h1>${t.missing}</h1>`) };
      if (!view.open) return { status: 409, html: page(lang, `<h1>${t.closed}</h1>`) };
      const body = `<h1>${t.retryTitle}</h1><p class="note">${t.note}</p><p data-testid="sandbox-retry-note">${t.retryNote}</p>
<div class="row"><span data-testid="sandbox-item">${esc(`${t.monthly} · ${view.plan}`)}</span><span>${view.credits.toLocaleString('en-US')} ${t.credits}</span></div>
<div class="row"><span></span><span class="amount" data-testid="sandbox-amount">${esc(formatPrice(view.amountMinor, view.currency, lang))}</span></div>
<form method="post" action="/sandbox/invoice/${esc(view.id)}">
<label for="card">${t.card}</label><input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242" maxlength="23">
<p class="hint">${t.hint}</p>${error ? `<p class="err" role="alert">${esc(error)}</p>` : ''}
<div class="buttons"><button class="pay" name="action" value="pay" data-testid="sandbox-pay">${t.pay}</button></div></form>`;
      return { status: 200, html: page(lang, body) };
    };

    app.get<{ Params: { id: string } }>('/sandbox/invoice/:id', async (req, reply) => {
      const r = await renderInvoice(req, req.params.id);
      return reply.code(r.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(r.html);
    });

    app.post<{ Params: { id: string }; Body: Record<string, string> }>('/sandbox/invoice/:id', async (req, reply) => {
      const form = (req.body ?? {}) as Record<string, string>;
      const lang = requestLocale(req.headers, req.cookies);
      const r = await provider.payInvoice(req.params.id, String(form.card ?? SANDBOX_CARD_OK).slice(0, 40));
      if ('paid' in r) return reply.redirect(`${ctx.config.publicUrl}${lang === 'en' ? '/en' : ''}/mypage?refresh=${Date.now()}`, 303);
      const text = r.error === 'invalid_card' ? TEXT[lang].invalid : r.error === 'declined' ? TEXT[lang].declined : TEXT[lang].closed;
      const again = await renderInvoice(req, req.params.id, text);
      return reply.code(r.error === 'not_open' ? again.status : 400).type('text/html; charset=utf-8').send(again.html);
    });

    app.post('/api/admin/billing/sandbox', { config: { access: 'public' } }, async (req, reply) => {
      // Public to the session guard: either the administrator's session or the operator token.
      if (!isOperator(req, secret)) {
        const user = await currentUser(ctx, req, reply);
        if (!user || !isAdmin(user)) throw new AppError(user ? 'FORBIDDEN' : 'UNAUTHENTICATED');
      }
      const body = OperatorRequest.safeParse(req.body);
      if (!body.success) throw new AppError('VALIDATION_FAILED', { details: body.error.issues });
      const user = await userByEmail(ctx, body.data.email);
      if (!user) throw new AppError('NOT_FOUND', { message: 'no such user' });
      const latest = await provider.latestOf(user.id);
      const need = (id: string | null) => {
        if (!id) throw new AppError('NOT_FOUND', { message: 'nothing to act on for this user' });
        return id;
      };
      let result: unknown;
      try {
        result = await operate(body.data.action, body.data.target, body.data.duration);
      } catch (err) {
        if (err instanceof PaymentProviderError) throw new AppError('PAYMENT_PROVIDER_ERROR', { message: err.message, details: { reason: err.message } });
        throw err;
      }
      await provider.idle();
      return { success: true, action: body.data.action, result };

      async function operate(action: z.infer<typeof OperatorRequest>['action'], target: string | undefined, duration: string | undefined): Promise<unknown> {
        switch (action) {
          case 'renew':
            return provider.renew(need(latest.subscriptionId));
          case 'fail-renewal':
            return provider.failRenewal(need(latest.subscriptionId));
          case 'refund': {
            const id = target ?? need(latest.paymentId);
            await provider.refund(id);
            return { refunded: id };
          }
          case 'expire':
            await provider.expire(need(latest.subscriptionId));
            return { expired: latest.subscriptionId };
          case 'advance':
            return provider.advance(need(latest.subscriptionId), parseDuration(duration ?? '')!);
          case 'status':
            return latest;
        }
      }
    });
  };
}
