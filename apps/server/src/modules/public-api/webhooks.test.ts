import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { jobs, webhookDeliveries } from '../../db/schema';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { addressRange, isAllowedWebhookAddress, resolveWebhookHost } from './webhook-address';
import { sendDueWebhooks, WEBHOOK_ATTEMPT_OFFSETS_MS } from './index';

/** A customer's webhook receiver on 127.0.0.1: answers each request with the next queued status (200 when none). */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string; path: string }[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      const status = answers.shift() ?? 200;
      if (status >= 300 && status < 400) res.setHeader('location', 'http://10.0.0.1/internal');
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { received, answers, base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Where a webhook may go (decision 040 §3): public unicast only; loopback only with the test switch. */
describe('webhook addresses', () => {
  it('refuses private, loopback, link-local (cloud metadata), CGNAT, unique-local, multicast, unspecified and IPv4-embedding IPv6 addresses', () => {
    const refused = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '64:ff9b::a00:1', '2002:a00:1::'];
    for (const ip of refused) expect(isAllowedWebhookAddress(ip, false), ip).toBe(false);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect(isAllowedWebhookAddress(ip, false), ip).toBe(true);
    // The test switch admits loopback and nothing else.
    expect(isAllowedWebhookAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedWebhookAddress('::1', true)).toBe(true);
    for (const ip of ['10.0.0.1', '169.254.169.254', '192.168.0.1', '::ffff:10.0.0.1']) expect(isAllowedWebhookAddress(ip, true), ip).toBe(false);
    expect(addressRange('::ffff:169.254.169.254')).toBe('linkLocal');
  });

  it('checks every address a name resolves to, and a name that does not resolve', async () => {
    const resolver = (addresses: string[]) => (async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) as never;
    await expect(resolveWebhookHost('hooks.example.com', false, resolver(['93.184.216.34']))).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    // One private answer among public ones is enough to refuse: the connection could pick it.
    await expect(resolveWebhookHost('rebind.example.com', false, resolver(['93.184.216.34', '10.0.0.5']))).rejects.toThrow(/address not allowed: 10\.0\.0\.5/);
    await expect(resolveWebhookHost('[::1]', false, resolver(['::1']))).rejects.toThrow(/loopback/);
    const failing = (async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    }) as never;
    await expect(resolveWebhookHost('nowhere.invalid', false, failing)).rejects.toThrow(/does not resolve \(ENOTFOUND\)/);
  });
});

describe.each(TEST_DATABASES)('webhooks to the customer on $name', (kind) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { API_REQUESTS_PER_MINUTE: '1000', WEBHOOKS_ALLOW_LOOPBACK: 'true' }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function customer() {
    const u = await signUpAndLogin(t.app);
    const created = (await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'shop' } })).json() as { secret: string; key: { webhookSecret: string } };
    const auth = { authorization: `Bearer ${created.secret}` };
    const form = multipartBody('file', 'portrait.jpg', 'image/jpeg', await makeJpeg(320, 240));
    const image = (await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...form.headers }, payload: form.payload })).json().imageUrl as string;
    return { ...u, auth, image, webhookSecret: created.key.webhookSecret };
  }
  const finished = (auth: Record<string, string>, id: string) =>
    waitFor(async () => {
      const r = (await t.app.inject({ url: `/v1/jobs/${id}`, headers: auth })).json() as { status: string };
      return r.status === 'processing' ? undefined : r;
    });

  it('posts the finished job signed per Standard Webhooks; after a 500 it retries when due with the same message id; every attempt is listed', async () => {
    const c = await customer();
    expect(c.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const url = `${receiver.base}/hooks/dewy?shop=1`;
    const res = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: c.auth, payload: { tool: 'upscale', input: { image: c.image, scale_factor: 1 }, webhook_url: url } });
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json() as { id: string; webhook_url: string };
    expect(job.webhook_url).toBe(url);
    expect((await finished(c.auth, job.id)).status).toBe('completed');

    receiver.answers.push(500);
    const before = receiver.received.length;
    expect(await sendDueWebhooks(t.ctx)).toBe(1);
    expect(receiver.received.length).toBe(before + 1);
    const [row] = await t.ctx.database.db.select().from(webhookDeliveries).innerJoin(jobs, eq(jobs.id, webhookDeliveries.jobRowId)).where(eq(jobs.jobId, job.id));
    expect(row!.webhook_deliveries).toMatchObject({ state: 'pending', attempts: 1, eventType: 'job.completed' });
    expect(row!.webhook_deliveries.nextAttemptAt.getTime()).toBe(row!.webhook_deliveries.createdAt.getTime() + WEBHOOK_ATTEMPT_OFFSETS_MS[1]!);
    // Not due until 5 s after the message was written: a round at the clock's 4.999 s sends nothing
    // (the clock is passed in, so a slow machine cannot make it due).
    expect(await sendDueWebhooks(t.ctx, { now: new Date(row!.webhook_deliveries.nextAttemptAt.getTime() - 1) })).toBe(0);
    // Two senders (processes) at once when it is due: one request, not two.
    const due = new Date(row!.webhook_deliveries.nextAttemptAt.getTime() + 1);
    const rounds = await Promise.all([sendDueWebhooks(t.ctx, { now: due }), sendDueWebhooks(t.ctx, { now: due })]);
    expect(rounds.sort()).toEqual([0, 1]);
    expect(receiver.received.length).toBe(before + 2);

    const [first, second] = receiver.received.slice(before);
    expect(first!.path).toBe('/hooks/dewy?shop=1');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    // The Standard Webhooks reference verifier accepts both, with the key's secret, and no other.
    const verifier = new Webhook(c.webhookSecret);
    for (const r of [first!, second!]) {
      const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
      // The retry was signed at the moved clock; verify each at its own timestamp.
      const payload = JSON.parse(r.body) as { type: string; data: { id: string; status: string; results: string[] } };
      expect(payload).toMatchObject({ type: 'job.completed', data: { id: job.id, status: 'completed' } });
      expect(payload.data.results).toHaveLength(1);
      const at = Number(headers['webhook-timestamp']) * 1000;
      const realNow = Date.now;
      Date.now = () => at;
      try {
        expect(() => verifier.verify(r.body, headers)).not.toThrow();
        expect(() => verifier.verify(r.body.replace('completed', 'failedxxx'), headers)).toThrow();
        expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(r.body, headers)).toThrow();
      } finally {
        Date.now = realNow;
      }
    }

    const listed = (await t.app.inject({ url: `/v1/jobs/${job.id}/webhooks`, headers: c.auth })).json() as { webhooks: { state: string; type: string; attempts: { status_code: number; error: string | null }[] }[] };
    expect(listed.webhooks).toHaveLength(1);
    expect(listed.webhooks[0]).toMatchObject({ state: 'delivered', type: 'job.completed' });
    expect(listed.webhooks[0]!.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [500, 'HTTP 500'],
      [200, null],
    ]);
    // Another account's key sees none of it.
    const other = await customer();
    expect((await t.app.inject({ url: `/v1/jobs/${job.id}/webhooks`, headers: other.auth })).statusCode).toBe(404);
  });

  it('a redirect is a failed attempt (its target is never asked); a bad webhook_url is refused and charges nothing; the same Idempotency-Key with another webhook_url is 422', async () => {
    const c = await customer();
    const job = (await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: c.auth, payload: { tool: 'upscale', input: { image: c.image, scale_factor: 1 }, webhook_url: `${receiver.base}/r` } })).json() as { id: string };
    await finished(c.auth, job.id);
    receiver.answers.push(302);
    await sendDueWebhooks(t.ctx);
    const listed = (await t.app.inject({ url: `/v1/jobs/${job.id}/webhooks`, headers: c.auth })).json() as { webhooks: { state: string; attempts: { status_code: number; error: string }[] }[] };
    expect(listed.webhooks[0]).toMatchObject({ state: 'pending', attempts: [{ status_code: 302, error: 'redirect not followed' }] });

    for (const webhook_url of ['ftp://example.com/x', 'http://user:pw@example.com/', 'not a url', '/relative', `https://example.com/${'a'.repeat(2100)}`]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: c.auth, payload: { tool: 'upscale', input: { image: c.image, scale_factor: 1 }, webhook_url } });
      expect(res.statusCode, webhook_url).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const key = { 'idempotency-key': 'order-77' };
    const a = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { ...c.auth, ...key }, payload: { tool: 'upscale', input: { image: c.image, scale_factor: 1 }, webhook_url: `${receiver.base}/a` } });
    const b = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { ...c.auth, ...key }, payload: { tool: 'upscale', input: { image: c.image, scale_factor: 1 }, webhook_url: `${receiver.base}/b` } });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(422);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, c.user.id))).toHaveLength(2);
  });
});

describe.each(TEST_DATABASES)('webhooks without the loopback switch on $name', (kind) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { API_REQUESTS_PER_MINUTE: '1000' }, { workers: false });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('a cancelled job owes a job.failed message; to 127.0.0.1, localhost, 10.x or 169.254.169.254 it is never sent, each attempt recorded with why', async () => {
    const u = await signUpAndLogin(t.app);
    const secret = (await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'shop' } })).json().secret as string;
    const auth = { authorization: `Bearer ${secret}` };
    const form = multipartBody('file', 'portrait.jpg', 'image/jpeg', await makeJpeg(320, 240));
    const image = (await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...form.headers }, payload: form.payload })).json().imageUrl as string;
    const port = new URL(receiver.base).port;
    const targets = [
      [`${receiver.base}/hook`, /address not allowed: 127\.0\.0\.1 \(loopback\)/],
      [`http://localhost:${port}/hook`, /address not allowed: (127\.0\.0\.1|::1) \(loopback\)/],
      ['http://10.0.0.1/hook', /address not allowed: 10\.0\.0\.1 \(private\)/],
      ['http://169.254.169.254/latest/meta-data/', /address not allowed: 169\.254\.169\.254 \(linkLocal\)/],
      [`http://[::ffff:127.0.0.1]:${port}/hook`, /address not allowed: ::ffff:7f00:1 \(loopback\)|address not allowed: ::ffff:127\.0\.0\.1 \(loopback\)/],
    ] as const;
    for (const [webhook_url, why] of targets) {
      const job = (await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: auth, payload: { tool: 'upscale', input: { image, scale_factor: 1 }, webhook_url } })).json() as { id: string };
      expect((await t.app.inject({ method: 'POST', url: `/v1/jobs/${job.id}/cancel`, headers: auth })).statusCode).toBe(200);
      expect(await sendDueWebhooks(t.ctx)).toBe(1);
      const listed = (await t.app.inject({ url: `/v1/jobs/${job.id}/webhooks`, headers: auth })).json() as { webhooks: { type: string; state: string; attempts: { status_code: number | null; error: string }[] }[] };
      expect(listed.webhooks[0]).toMatchObject({ type: 'job.failed', state: 'pending' });
      expect(listed.webhooks[0]!.attempts[0]!.status_code).toBeNull();
      expect(listed.webhooks[0]!.attempts[0]!.error, webhook_url).toMatch(why);
    }
    expect(receiver.received).toEqual([]);
  });

  it('a job started without webhook_url owes no message', async () => {
    const u = await signUpAndLogin(t.app);
    const secret = (await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'shop' } })).json().secret as string;
    const auth = { authorization: `Bearer ${secret}` };
    const form = multipartBody('file', 'portrait.jpg', 'image/jpeg', await makeJpeg(320, 240));
    const image = (await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...form.headers }, payload: form.payload })).json().imageUrl as string;
    const job = (await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: auth, payload: { tool: 'upscale', input: { image, scale_factor: 1 } } })).json() as { id: string; webhook_url: string | null };
    expect(job.webhook_url).toBeNull();
    await t.app.inject({ method: 'POST', url: `/v1/jobs/${job.id}/cancel`, headers: auth });
    const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, job.id));
    expect(await t.ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobRowId, row!.id))).toEqual([]);
  });
});
