import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { billingCheckouts } from '../../db/schema';
import { requestLocale } from '../../lib/locale';
import { PADDLE_CHECKOUT_PATH } from './providers/paddle.provider';

/**
 * Our Paddle checkout page (decision 042), registered only when PAYMENTS_PROVIDER=paddle: the "default
 * payment link" set in Paddle (https://developer.paddle.com/build/transactions/default-payment-link).
 * Every transaction's `checkout.url` is this page with `?_ptxn=txn_…`; it loads Paddle.js, initialises
 * it with the client-side token (and the sandbox environment where configured), and Paddle.js opens
 * Paddle Checkout for that transaction by itself. Paddle also sends customers here to pay a failed
 * renewal or change their payment method.
 *
 * - GET /payment/paddle-checkout?_ptxn=… (Korean, or the `locale` cookie / Accept-Language) and
 *   GET /en/payment/paddle-checkout?_ptxn=… (English): server-rendered HTML. Where the transaction is a
 *   checkout of ours (billing_checkouts.provider_checkout_id), a completed payment goes on to our success
 *   page for it (`checkout.settings.successUrl`) and a closed checkout back to the item's page; any
 *   other transaction (a renewal or a payment-method update) returns to My Page. These addresses come
 *   from our records, never from the query, so the page redirects nowhere else.
 * - GET /payment/paddle-checkout.js: the page's script (no inline script: the CSP needs no nonce).
 *
 * The page's Content-Security-Policy (`paddleCheckoutCsp`) adds only Paddle's CDN and checkout frame to
 * the app's; every other route keeps the app's own policy (lib/http-headers.ts).
 */

const SCRIPT_PATH = `${PADDLE_CHECKOUT_PATH}.js`;
/** Paddle.js v2 (https://developer.paddle.com/paddle-js/include-paddlejs). */
export const PADDLE_JS_URL = 'https://cdn.paddle.com/paddle/v2/paddle.js';
/** Paddle transaction ids: `txn_` and 26 lower-case letters or digits (Paddle's documented pattern). */
const TXN_ID = /^txn_[a-z\d]{26}$/;

/**
 * The checkout page's CSP: the app's directives (lib/http-headers.ts, `cspDirectives`) with Paddle.js
 * from cdn.paddle.com (sandbox: also sandbox-cdn.paddle.com, where it loads its sandbox assets), its
 * checkout iframe (buy.paddle.com; sandbox-buy.paddle.com) and Paddle's API hosts for the script's own
 * calls. Still no inline script, no plugins, no framing of the page itself.
 */
export function paddleCheckoutCsp(environment: 'sandbox' | 'production'): string {
  const cdn = environment === 'sandbox' ? ['https://cdn.paddle.com', 'https://sandbox-cdn.paddle.com'] : ['https://cdn.paddle.com'];
  const frame = environment === 'sandbox' ? ['https://sandbox-buy.paddle.com', 'https://sandbox-cdn.paddle.com'] : ['https://buy.paddle.com', 'https://cdn.paddle.com'];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...cdn],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", ...cdn],
    'img-src': ["'self'", 'data:', ...cdn],
    'connect-src': ["'self'", 'https://*.paddle.com'],
    'frame-src': frame,
    'font-src': ["'self'", ...cdn],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join(';');
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON for a `<script type="application/json">` block: nothing in it can close the element or start markup. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const TEXT = {
  ko: { title: '결제', opening: 'Paddle 결제 창을 여는 중입니다…', failed: '결제 창을 열 수 없습니다. 잠시 후 다시 시도하거나 고객센터에 문의해 주세요.', back: '돌아가기', invalid: '결제 링크가 올바르지 않습니다.', unavailable: '지금은 결제할 수 없습니다.', noscript: '결제하려면 JavaScript를 켜 주세요.' },
  en: { title: 'Checkout', opening: 'Opening the Paddle checkout…', failed: 'The checkout could not be opened. Please try again later or contact support.', back: 'Go back', invalid: 'This payment link is not valid.', unavailable: 'Payments are not available right now.', noscript: 'Please turn on JavaScript to pay.' },
} as const;

function page(lang: Locale, body: string, tail = ''): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${TEXT[lang].title}</title>
<style>body{font-family:system-ui,'Noto Sans KR',sans-serif;background:#f4f5f7;margin:0;display:grid;place-items:center;min-height:100vh;color:#1b1d21}
main{background:#fff;border-radius:14px;box-shadow:0 6px 30px #0001;padding:28px;width:min(420px,92vw);text-align:center}h1{font-size:20px;margin:0 0 12px}a{color:#3b5bfd}</style></head><body><main>${body}</main>${tail}</body></html>`;
}

/** The page's script: starts Paddle.js from the JSON block; Paddle.js opens the checkout for `?_ptxn=` itself. */
const BOOTSTRAP_JS = `(function () {
  var el = document.getElementById('dewy-paddle');
  var status = document.getElementById('dewy-paddle-status');
  if (!el) return;
  var cfg = JSON.parse(el.textContent || '{}');
  if (!window.Paddle) { if (status) status.textContent = cfg.failedText; return; }
  var completed = false;
  if (cfg.environment === 'sandbox') window.Paddle.Environment.set('sandbox');
  window.Paddle.Initialize({
    token: cfg.token,
    checkout: { settings: { displayMode: 'overlay', locale: cfg.locale, successUrl: cfg.successUrl } },
    eventCallback: function (event) {
      if (!event) return;
      if (event.name === 'checkout.completed') completed = true;
      if (event.name === 'checkout.closed' && !completed) window.location.assign(cfg.cancelUrl);
    }
  });
})();
`;

/** Registers the Paddle checkout page (see the file comment). */
export function paddleRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    const cfg = ctx.config.payments.paddle;
    const csp = paddleCheckoutCsp(cfg.environment);
    const site = (lang: Locale, pathAndQuery: string) => `${ctx.config.publicUrl}${lang === 'en' ? '/en' : ''}${pathAndQuery}`;

    /** Where a paid / closed checkout goes: our pages for a checkout of ours, else My Page. */
    async function destinations(txn: string, lang: Locale): Promise<{ successUrl: string; cancelUrl: string }> {
      const row = (
        await ctx.database.db
          .select({ id: billingCheckouts.id, item: billingCheckouts.item })
          .from(billingCheckouts)
          .where(and(eq(billingCheckouts.provider, 'paddle'), eq(billingCheckouts.providerCheckoutId, txn)))
          .limit(1)
      )[0];
      if (!row) return { successUrl: site(lang, `/mypage?refresh=${Date.now()}`), cancelUrl: site(lang, '/mypage') };
      const q = `checkout=${encodeURIComponent(row.id)}`;
      return { successUrl: site(lang, `/payment/success?${q}`), cancelUrl: site(lang, `/payment/${encodeURIComponent(row.item)}?payment=cancelled&${q}`) };
    }

    const send = (reply: FastifyReply, status: number, html: string) =>
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', csp)
        // Wallets (Kakao Pay, PayPal …) may open a window of their own from the checkout frame.
        .header('cross-origin-opener-policy', 'same-origin-allow-popups')
        .send(html);

    const handler = (lang: Locale | null) => async (req: FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>, reply: FastifyReply) => {
      const l: Locale = lang ?? requestLocale(req.headers, req.cookies);
      const t = TEXT[l];
      const raw = req.query._ptxn;
      const txn = typeof raw === 'string' ? raw : '';
      if (!TXN_ID.test(txn)) return send(reply, 400, page(l, `<h1>${t.invalid}</h1><p><a href="${esc(site(l, '/'))}">${t.back}</a></p>`));
      if (!cfg.clientToken) return send(reply, 503, page(l, `<h1>${t.unavailable}</h1>`));
      const { successUrl, cancelUrl } = await destinations(txn, l);
      const config = { token: cfg.clientToken, environment: cfg.environment, transactionId: txn, locale: l, successUrl, cancelUrl, failedText: t.failed };
      const body = `<h1>${t.title}</h1><p id="dewy-paddle-status" role="status">${t.opening}</p><noscript><p>${t.noscript}</p></noscript><p><a href="${esc(cancelUrl)}">${t.back}</a></p>`;
      const tail = `<script type="application/json" id="dewy-paddle">${jsonForHtml(config)}</script><script src="${PADDLE_JS_URL}"></script><script src="${SCRIPT_PATH}"></script>`;
      return send(reply, 200, page(l, body, tail));
    };

    app.get(PADDLE_CHECKOUT_PATH, { schema: { hide: true } }, handler(null));
    app.get(`/en${PADDLE_CHECKOUT_PATH}`, { schema: { hide: true } }, handler('en'));
    app.get(SCRIPT_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(BOOTSTRAP_JS),
    );
  };
}
