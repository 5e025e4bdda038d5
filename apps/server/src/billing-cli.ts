import { loadSecret } from './bootstrap';
import { loadConfig } from './config';
import { operatorToken } from './modules/billing/sandbox.routes';

/**
 * `npm run billing -- <action> <email> [target]` — drives the sandbox provider's lifecycle on a running
 * server (decision 012): renew | fail-renewal | refund [order-or-invoice-id] | expire | status.
 * It reads the same configuration and DATA_DIR secret as the server and calls
 * POST /api/admin/billing/sandbox with the operator token (BILLING_API_URL overrides the address,
 * default http://127.0.0.1:$PORT). Exit code 0 on success, 1 on a refusal, 2 on bad usage.
 */
const ACTIONS = ['renew', 'fail-renewal', 'refund', 'expire', 'status'];

async function main(argv: string[]): Promise<number> {
  const [action, email, target] = argv;
  if (!action || !email || !ACTIONS.includes(action)) {
    console.error(`usage: npm run billing -- <${ACTIONS.join('|')}> <email> [order-or-invoice-id]`);
    return 2;
  }
  const config = loadConfig();
  if (config.payments.provider !== 'sandbox') {
    console.error(`PAYMENTS_PROVIDER is ${config.payments.provider}: lifecycle events come from that provider, not from this tool.`);
    return 2;
  }
  const base = (process.env.BILLING_API_URL ?? `http://127.0.0.1:${config.port}`).replace(/\/$/, '');
  const res = await fetch(`${base}/api/admin/billing/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken(loadSecret(config))}` },
    body: JSON.stringify({ action, email, ...(target ? { target } : {}) }),
  }).catch((err: unknown) => {
    console.error(`cannot reach the server at ${base} (is it running? npm start): ${String(err)}`);
    return null;
  });
  if (!res) return 1;
  const body = await res.text();
  console.log(body);
  return res.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
