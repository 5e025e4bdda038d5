import http from 'node:http';
import https from 'node:https';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { AppContext } from '../../context';
import { apiKeys, jobs, webhookAttempts, webhookDeliveries, type WebhookDeliveryRow } from '../../db/schema';
import { webhookSigningSecret } from '../api-keys';
import { resolveWebhookHost, WebhookAddressRefused } from './webhook-address';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/**
 * When each attempt of a message is due, from the message's creation (decision 040 §3): at once, then
 * after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (the Standard Webhooks schedule), and a last attempt 24 h
 * after the first. Eight attempts; after the last failed one the message is `failed`.
 */
export const WEBHOOK_ATTEMPT_OFFSETS_MS: readonly number[] = (() => {
  const delays = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
  const offsets = [0];
  for (const d of delays) offsets.push(offsets[offsets.length - 1]! + d);
  offsets.push(24 * HOUR);
  return offsets;
})();
/** A leased message is not picked again by another sender for this long (ms): longer than any attempt. */
const LEASE_MS = 2 * MINUTE;
/** At most this much of a receiver's answer is read (bytes); the rest is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What a job's webhook carries: the Standard Webhooks payload shape `{type, timestamp, data}`. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: unknown;
}

/** One attempt's outcome: the HTTP status when an answer came, else why none did. */
interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs one signed message to `url`, connecting to the address {@link resolveWebhookHost} checked (no
 * second lookup), with the original host in `Host` and as the TLS server name. A redirect is not
 * followed (it is a failed attempt: its target was never checked); only a 2xx answer delivers.
 */
async function postOnce(url: URL, body: string, headers: Record<string, string>, opts: { allowLoopback: boolean; timeoutMs: number }): Promise<AttemptOutcome> {
  let target: { address: string; family: number };
  try {
    target = await resolveWebhookHost(url.hostname, opts.allowLoopback);
  } catch (err) {
    if (err instanceof WebhookAddressRefused) return { statusCode: null, error: err.message };
    throw err;
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    const req = client.request(
      {
        host: target.address,
        family: target.family,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        servername: url.protocol === 'https:' ? url.hostname.replace(/^\[(.*)\]$/, '$1') : undefined,
        headers: { ...headers, host: url.host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Dewy-Webhooks/1' },
        timeout: opts.timeoutMs,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => {
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300) resolve({ statusCode: code, error: null });
          else if (code >= 300 && code < 400) resolve({ statusCode: code, error: 'redirect not followed' });
          else resolve({ statusCode: code, error: `HTTP ${code}` });
        };
        res.on('end', done);
        res.on('close', done);
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', (err) => resolve({ statusCode: null, error: err.message.slice(0, 300) }));
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}

/**
 * Sends the webhook messages that are due (decision 040 §3), in every process that runs housekeeping:
 * leases up to `limit` due `pending` rows (FOR UPDATE SKIP LOCKED, `next_attempt_at` pushed 2 min on,
 * so two processes never send one message at once and a crashed sender's lease runs out), then for each
 * builds `{type, timestamp, data: the job as GET /v1/jobs/:id answers it}`, signs it per Standard
 * Webhooks with the key's secret (`webhook-id` = the message id, the same on every retry;
 * `webhook-timestamp` in seconds; `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`),
 * POSTs it to the checked address ({@link resolveWebhookHost}), records the attempt, and marks the row
 * delivered (2xx), schedules the next attempt ({@link WEBHOOK_ATTEMPT_OFFSETS_MS}) or marks it failed.
 * @param present the job as `/v1` answers it (public-api's presenter)
 * @param opts.now the clock (tests move it to make a retry due)
 * @returns how many messages were attempted
 */
export async function deliverDueWebhooks(
  ctx: AppContext,
  present: (row: typeof jobs.$inferSelect) => Promise<unknown>,
  opts: { now?: Date; limit?: number } = {},
): Promise<number> {
  const db = ctx.database.db;
  const now = opts.now ?? new Date();
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(opts.limit ?? 20)
    .for('update', { skipLocked: true });
  const leased = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS), updatedAt: now })
    .where(and(inArray(webhookDeliveries.id, due), eq(webhookDeliveries.state, 'pending')))
    .returning();
  for (const delivery of leased) await attempt(ctx, present, delivery, now);
  return leased.length;
}

async function attempt(ctx: AppContext, present: (row: typeof jobs.$inferSelect) => Promise<unknown>, delivery: WebhookDeliveryRow, now: Date): Promise<void> {
  const db = ctx.database.db;
  const log = ctx.log.child({ task: 'webhooks', messageId: delivery.messageId, jobRowId: delivery.jobRowId });
  const [job] = await db.select().from(jobs).where(eq(jobs.id, delivery.jobRowId));
  const [key] = await db.select({ id: apiKeys.id, prefix: apiKeys.prefix }).from(apiKeys).where(eq(apiKeys.id, delivery.apiKeyId));
  const number = delivery.attempts + 1;
  const started = Date.now();
  let outcome: AttemptOutcome;
  if (!job || !key) {
    outcome = { statusCode: null, error: 'job or key gone' };
  } else {
    const body = JSON.stringify({ type: delivery.eventType, timestamp: now.toISOString(), data: await present(job) } satisfies WebhookPayload);
    const signature = new Webhook(webhookSigningSecret(ctx.secret, key)).sign(delivery.messageId, now, body);
    const headers = { 'webhook-id': delivery.messageId, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
    outcome = await postOnce(new URL(delivery.url), body, headers, { allowLoopback: ctx.config.webhooks.allowLoopback, timeoutMs: ctx.config.webhooks.timeoutMs }).catch((err: Error) => ({ statusCode: null, error: err.message.slice(0, 300) }));
  }
  const delivered = outcome.error === null;
  const nextOffset = WEBHOOK_ATTEMPT_OFFSETS_MS[number];
  const state = delivered ? 'delivered' : nextOffset === undefined || !job || !key ? 'failed' : 'pending';
  const nextAttemptAt = state === 'pending' ? new Date(Math.max(now.getTime(), delivery.createdAt.getTime() + nextOffset!)) : now;
  await db.insert(webhookAttempts).values({ deliveryId: delivery.id, attempt: number, attemptedAt: now, statusCode: outcome.statusCode, error: outcome.error, durationMs: Date.now() - started });
  await db.update(webhookDeliveries).set({ state, attempts: number, nextAttemptAt, updatedAt: new Date() }).where(eq(webhookDeliveries.id, delivery.id));
  if (delivered) log.info({ attempt: number, statusCode: outcome.statusCode }, 'webhook delivered');
  else log.warn({ attempt: number, statusCode: outcome.statusCode, error: outcome.error, state }, 'webhook attempt failed');
}

/** A job's webhook messages and their attempts, oldest first, as `GET /v1/jobs/:id/webhooks` lists them. */
export async function listJobWebhooks(ctx: AppContext, jobRowId: number) {
  const db = ctx.database.db;
  const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobRowId, jobRowId)).orderBy(asc(webhookDeliveries.id));
  const attempts = deliveries.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveries.map((d) => d.id))).orderBy(asc(webhookAttempts.id))
    : [];
  return deliveries.map((d) => ({
    id: d.messageId,
    type: d.eventType,
    url: d.url,
    state: d.state,
    next_attempt_at: d.state === 'pending' ? d.nextAttemptAt.toISOString() : null,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({ attempt: a.attempt, attempted_at: a.attemptedAt.toISOString(), status_code: a.statusCode, error: a.error, duration_ms: a.durationMs })),
  }));
}
