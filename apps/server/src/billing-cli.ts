import { loadSecret } from './bootstrap';
import { loadConfig } from './config';
import { operatorToken } from './modules/billing';
import { operatorApiBase } from './server-address';

/**
 * `npm run billing -- <action> <email> [target]` — drives the sandbox provider's lifecycle on a running
 * server (decision 012): renew | fail-renewal | refund [order-or-invoice-id] | expire | status |
 * advance <duration> (the test clock, decision 028: `29d`, `12h`, `30m` moves the user's subscription
 * time forward; crossing the period end renews it, or ends it when a cancel was scheduled).
 * It reads the same configuration and DATA_DIR secret as the server and calls
 * POST /api/admin/billing/sandbox with the operator token at the address the running server recorded in
 * DATA_DIR (server-address.ts), whatever PORT it was started with; BILLING_API_URL overrides it, and
 * without a record it tries http://127.0.0.1:$PORT. Exit code 0 on success, 1 on a refusal, 2 on bad usage.
 */
const ACTIONS = ['renew', 'fail-renewal', 'refund', 'expire', 'status', 'advance'];
const USAGE = [
  `usage: npm run billing -- <${ACTIONS.filter((a) => a !== 'advance').join('|')}> <email> [order-or-invoice-id]`,
  '       npm run billing -- advance <email> <duration>   (duration: 29d, 12h, 30m; at most 366d)',
].join('\n');

async function main(argv: string[]): Promise<number> {
  const [action, email, arg] = argv;
  if (!action || !email || !ACTIONS.includes(action) || (action === 'advance' && !arg)) {
    console.error(USAGE);
    return 2;
  }
  const extra = action === 'advance' ? { duration: arg } : arg ? { target: arg } : {};
  const config = loadConfig();
  if (config.payments.provider !== 'sandbox') {
    console.error(`PAYMENTS_PROVIDER is ${config.payments.provider}: lifecycle events come from that provider, not from this tool.`);
    return 2;
  }
  const { url: base, source } = operatorApiBase(process.env, config.dataDir, config.port);
  const res = await fetch(`${base}/api/admin/billing/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken(loadSecret(config))}` },
    body: JSON.stringify({ action, email, ...extra }),
  }).catch((err: unknown) => {
    const hint = source === 'BILLING_API_URL' ? 'BILLING_API_URL names it' : source === 'DATA_DIR' ? `the server recorded in ${config.dataDir}/server.json did not answer` : `no running server is recorded in DATA_DIR=${config.dataDir}, so PORT=${config.port} was tried; start it (npm start), run this with the DATA_DIR the server uses, or set BILLING_API_URL`;
    console.error(`cannot reach the server at ${base} (${hint}): ${String(err)}`);
    return null;
  });
  if (!res) return 1;
  const body = await res.text();
  console.log(body);
  return res.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
