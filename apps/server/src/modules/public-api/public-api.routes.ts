import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z, ZodError } from 'zod';
import { UPLOAD_LIMITS, UploadResponseSchema, type JobStatus } from '@dewy/contracts';
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { jobs, type JobRow, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hitFixedWindow } from '../../lib/rate-limit';
import { authenticateApiKey } from '../api-keys';
import { getBalance } from '../credits';
import { cancelQueuedJob, createToolJob, type JobActor, type ToolDefinition } from '../tool-jobs';
import { readMultipartFile, storeDirectUpload, viewUrl } from '../uploads';
import { listJobWebhooks } from './webhooks.delivery';
import { onceForKey, requestHashOf } from './idempotency';

/** The authenticated caller of a `/v1` request: the API key and its account. */
interface ApiCaller {
  apiKeyId: number;
  user: UserRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `/v1` authentication hook (decision 040 §2). */
    apiCaller?: ApiCaller;
  }
}

/** The caller of a `/v1` request (after the hook). @throws AppError API_KEY_INVALID when there is none. */
function callerOf(req: FastifyRequest): ApiCaller {
  if (!req.apiCaller) throw new AppError('API_KEY_INVALID');
  return req.apiCaller;
}

/** The job's actor for an API key (decision 034): the job is the key's account's. */
const apiKeyActor = (c: ApiCaller): JobActor => ({ kind: 'api_key', userId: c.user.id, apiKeyId: c.apiKeyId });

/** A job as `/v1` answers it. Dates ISO 8601; result URLs signed, valid for UPLOAD_LIMITS.viewUrlTtlSeconds. */
const ApiJobSchema = z.object({
  id: z.string(),
  tool: z.string(),
  status: z.enum(['processing', 'completed', 'failed']),
  /** Credits charged (refunded when the job failed). */
  cost: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The JobErrorCode of a failed job, else null. */
  error: z.string().nullable(),
  /** Signed URLs of the finished images, in order; empty until completed. */
  results: z.array(z.string()),
  /** Who started it: this API (`api_key`) or the account on the page (`user`). */
  started_by: z.enum(['user', 'api_key']),
  /** Where the job's end is POSTed, signed (Standard Webhooks), or null. */
  webhook_url: z.string().nullable(),
}).meta({
  examples: [
    {
      id: '3f1c2a9e-8b7d-4c6e-9a51-2d4b8e7f6a10',
      tool: 'upscale',
      status: 'completed',
      cost: 100,
      created_at: '2026-11-27T09:30:00.000Z',
      updated_at: '2026-11-27T09:30:41.000Z',
      error: null,
      results: ['https://dewy.example/api/storage/file?key=u%2F42%2Fresults%2F3f1c2a9e.jpg&exp=1795860000&sig=…'],
      started_by: 'api_key',
      webhook_url: 'https://shop.example/hooks/dewy',
    },
  ],
});
type ApiJob = z.infer<typeof ApiJobSchema>;

/**
 * A job's `webhook_url`: an absolute http(s) URL of at most 2048 characters without user name or
 * password. Where it points is checked when each message is sent (decision 040 §3), not here: a name
 * may resolve elsewhere by then.
 */
const WebhookUrlSchema = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'an absolute http(s) URL without credentials');

const ApiWebhookListSchema = z.object({
  webhooks: z.array(
    z.object({
      /** The message id (`webhook-id`), the same on every retry. */
      id: z.string(),
      type: z.enum(['job.completed', 'job.failed']),
      url: z.string(),
      state: z.enum(['pending', 'delivered', 'failed']),
      next_attempt_at: z.string().nullable(),
      attempts: z.array(z.object({ attempt: z.number().int(), attempted_at: z.string(), status_code: z.number().int().nullable(), error: z.string().nullable(), duration_ms: z.number().int() })),
    }),
  ),
});

const ApiJobListSchema = z.object({ jobs: z.array(ApiJobSchema), next_cursor: z.string().nullable() });

/** The tool's public name in `/v1`: its job name (`upscale`, `face-edit`, `image-edit`, `kling-generation`). */
const apiToolName = (tool: ToolDefinition) => tool.jobName;

/**
 * A job as `/v1` answers it (and as its webhooks carry it): public id, tool, status, cost, dates (ISO
 * 8601), the JobErrorCode of a failed job, signed result URLs, who started it, its webhook address.
 */
export async function presentJob(ctx: AppContext, tools: readonly ToolDefinition[], row: JobRow): Promise<ApiJob> {
  const keys = row.status === 'completed' ? (row.resultKeys ?? (row.resultKey ? [row.resultKey] : [])) : [];
  const tool = tools.find((t) => t.jobName === row.jobName);
  return {
    id: row.jobId,
    tool: tool ? apiToolName(tool) : row.jobName,
    status: row.status as JobStatus,
    cost: row.cost,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    error: row.status === 'failed' ? (row.errorCode ?? 'JOB_FAILED') : null,
    results: await Promise.all(keys.map((k) => viewUrl(ctx, k))),
    started_by: row.actorKind === 'api_key' ? 'api_key' : 'user',
    webhook_url: row.webhookUrl,
  };
}

/** Every `/v1` POST takes an optional `Idempotency-Key` (1–255 characters). */
const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(255).optional() });

/** Every `/v1` route takes the API key as a bearer token (OpenAPI security scheme `apiKey`). */
const SECURITY = [{ apiKey: [] }];

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the caller's account's jobs by id; another account's, unknown or malformed ids all answer NOT_FOUND. */
async function findJob(ctx: AppContext, userId: number, id: string): Promise<JobRow> {
  if (!JOB_ID.test(id)) throw new AppError('NOT_FOUND');
  const [row] = await ctx.database.db.select().from(jobs).where(and(eq(jobs.jobId, id), eq(jobs.userId, userId), isNull(jobs.deletedAt)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** A list cursor: the last row's id, opaque to the caller (base64url). */
const encodeCursor = (id: number) => Buffer.from(`j${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^j(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new AppError('VALIDATION_FAILED', { message: 'cursor is not one this API gave', details: [{ field: 'cursor', rule: 'cursor' }] });
  return Number(m[1]);
}

/**
 * The public REST API (decision 040 §2), for a customer's programs: `Authorization: Bearer dewy_sk_…`
 * on every route (401 API_KEY_INVALID otherwise), a per-key limit of `config.publicApi.requestsPerMinute`
 * (429 RATE_LIMITED with `Retry-After`), and `X-Credits-Remaining` on every authenticated answer. Errors
 * use the one error body of `/api` (`{success: false, code, error, message, details?}`) in the caller's
 * `Accept-Language`.
 * - `POST /v1/uploads` (multipart field `file`): stores a photo as the account's upload (the upload
 *   pipeline's checks: type, size, pixels, moderation); its `imageUrl` is what a job's input names.
 *   The server never fetches a URL a customer sends.
 * - `POST /v1/jobs {tool, input}`: starts a job of any tool of `tools` with that tool's page input,
 *   through the kernel (charge, idempotency with `Idempotency-Key`, fair queueing), as the API key.
 * - `GET /v1/jobs/:id`, `GET /v1/jobs?limit&cursor` (newest first, keyset pagination),
 *   `POST /v1/jobs/:id/cancel` (a job no worker started: failed JOB_CANCELLED, refunded at once),
 *   `GET /v1/jobs/:id/result?index=` (the finished image's bytes), `GET /v1/jobs/:id/webhooks` (its
 *   webhook messages and attempts). A job started with `webhook_url` has its end POSTed there, signed
 *   (Standard Webhooks, the key's secret), by {@link deliverDueWebhooks}.
 * An API key never reaches `/api` (account, billing, keys): those take the session cookie only.
 * The tools are the context's (`ctx.tools`, tools.ts): a new tool is in the API without a new route.
 */
export function publicApiRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const tools = ctx.tools;
  const toolNames = tools.map(apiToolName) as [string, ...string[]];
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 2, parts: 3 } });

    app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      const m = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? '');
      const found = m ? await authenticateApiKey(ctx.database.db, m[1]!) : null;
      if (!found) throw new AppError('API_KEY_INVALID');
      const { hits, ttlMs } = await hitFixedWindow(ctx.database.db, `api:key:${found.apiKeyId}`, 60_000);
      if (hits > ctx.config.publicApi.requestsPerMinute) {
        const retryAfter = Math.max(1, Math.ceil(ttlMs / 1000));
        reply.header('retry-after', String(retryAfter));
        throw new AppError('RATE_LIMITED', { details: { retryAfterSeconds: retryAfter } });
      }
      req.apiCaller = found;
    });
    app.addHook('onSend', async (req, reply) => {
      if (!req.apiCaller) return;
      reply.header('x-credits-remaining', String((await getBalance(ctx.database.db, req.apiCaller.user.id)).total));
      reply.header('cache-control', 'no-store');
    });

    app.post('/v1/uploads', { schema: { tags: ['public-api'], security: SECURITY, summary: 'Upload a photo (multipart field `file`); its imageUrl is what a job input names; Idempotency-Key replays', consumes: ['multipart/form-data'], headers: IdempotencyHeaders, response: { 201: UploadResponseSchema } } }, async (req, reply) => {
      const caller = callerOf(req);
      const bytes = await readMultipartFile(req, 'file');
      const key = req.headers['idempotency-key'];
      const stored = key
        ? (await onceForKey(ctx.database.db, { userId: caller.user.id, route: 'uploads', key, requestHash: requestHashOf(bytes) }, () => storeDirectUpload(ctx, caller.user.id, bytes))).value
        : await storeDirectUpload(ctx, caller.user.id, bytes);
      return reply.code(201).send(stored);
    });

    app.post(
      '/v1/jobs',
      {
        schema: {
          tags: ['public-api'],
          security: SECURITY,
          summary: "Start a job of any tool with that tool's input (e.g. {tool: 'upscale', input: {image, scale_factor: 2}}); Idempotency-Key replays",
          body: z
            .object({ tool: z.enum(toolNames), input: z.record(z.string(), z.unknown()), webhook_url: WebhookUrlSchema.optional() })
            .strict()
            .meta({
              examples: [
                { tool: 'upscale', input: { image: '<imageUrl of POST /v1/uploads>', scale_factor: 2 } },
                { tool: 'upscale', input: { image: '<imageUrl of POST /v1/uploads>', scale_factor: 1.5, lora_index: 6, upper_lip: true, lower_lip: true }, webhook_url: 'https://shop.example/hooks/dewy' },
              ],
            }),
          headers: IdempotencyHeaders,
          response: { 201: ApiJobSchema },
        },
      },
      async (req, reply) => {
        const caller = callerOf(req);
        const tool = tools.find((t) => apiToolName(t) === req.body.tool)!;
        let input: unknown;
        try {
          input = tool.input.parse(req.body.input);
        } catch (err) {
          if (err instanceof ZodError) {
            throw new AppError('VALIDATION_FAILED', { message: 'input does not match the tool', details: err.issues.map((i) => ({ field: ['input', ...i.path].join('.'), rule: i.code })) });
          }
          throw err;
        }
        const created = await createToolJob(ctx, tool, apiKeyActor(caller), input, { idempotencyKey: req.headers['idempotency-key'], webhookUrl: req.body.webhook_url });
        req.log.info({ userId: caller.user.id, apiKeyId: caller.apiKeyId, jobId: created.jobId, cost: created.cost }, 'api job created');
        return reply.code(201).send(await presentJob(ctx, tools, await findJob(ctx, caller.user.id, created.jobId)));
      },
    );

    app.get('/v1/jobs/:id', { schema: { tags: ['public-api'], security: SECURITY, summary: 'A job of the account', params: z.object({ id: z.string().max(64) }), response: { 200: ApiJobSchema } } }, async (req) =>
      presentJob(ctx, tools, await findJob(ctx, callerOf(req).user.id, req.params.id)),
    );

    app.get(
      '/v1/jobs',
      { schema: { tags: ['public-api'], security: SECURITY, summary: "The account's jobs, newest first (cursor pagination)", querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: z.string().max(64).optional() }).strict(), response: { 200: ApiJobListSchema } } },
      async (req) => {
        const userId = callerOf(req).user.id;
        const before = req.query.cursor ? decodeCursor(req.query.cursor) : null;
        const rows = await ctx.database.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.userId, userId), isNull(jobs.deletedAt), before === null ? undefined : lt(jobs.id, before)))
          .orderBy(desc(jobs.id))
          .limit(req.query.limit + 1);
        const page = rows.slice(0, req.query.limit);
        return {
          jobs: await Promise.all(page.map((r) => presentJob(ctx, tools, r))),
          next_cursor: rows.length > req.query.limit ? encodeCursor(page[page.length - 1]!.id) : null,
        };
      },
    );

    app.post(
      '/v1/jobs/:id/cancel',
      {
        schema: {
          tags: ['public-api'],
          security: SECURITY,
          summary: 'Cancel a job no worker has started: it fails with JOB_CANCELLED and its credits come back at once (409 JOB_NOT_CANCELLABLE once started or finished)',
          params: z.object({ id: z.string().max(64) }),
          headers: IdempotencyHeaders,
          response: { 200: ApiJobSchema },
        },
      },
      async (req) => {
        const caller = callerOf(req);
        const row = await findJob(ctx, caller.user.id, req.params.id);
        const key = req.headers['idempotency-key'];
        // With a key, a retried cancel answers the job again instead of 409 (it was cancelled the first time).
        if (key) await onceForKey(ctx.database.db, { userId: caller.user.id, route: 'cancel', key, requestHash: requestHashOf(row.jobId) }, async () => (await cancelQueuedJob(ctx, caller.user.id, row.jobId), { jobId: row.jobId }));
        else await cancelQueuedJob(ctx, caller.user.id, row.jobId);
        req.log.info({ userId: caller.user.id, apiKeyId: caller.apiKeyId, jobId: row.jobId }, 'api job cancelled');
        return presentJob(ctx, tools, await findJob(ctx, caller.user.id, row.jobId));
      },
    );

    app.get(
      '/v1/jobs/:id/webhooks',
      {
        schema: {
          tags: ['public-api'],
          security: SECURITY,
          summary: "A job's webhook messages and every attempt to send them (status code or why none, duration)",
          params: z.object({ id: z.string().max(64) }),
          response: { 200: ApiWebhookListSchema },
        },
      },
      async (req) => ({ webhooks: await listJobWebhooks(ctx, (await findJob(ctx, callerOf(req).user.id, req.params.id)).id) }),
    );

    app.get(
      '/v1/jobs/:id/result',
      { schema: { tags: ['public-api'], security: SECURITY, summary: "A finished job's image (bytes; index for multi-image tools)", params: z.object({ id: z.string().max(64) }), querystring: z.object({ index: z.coerce.number().int().min(0).max(15).default(0) }).strict() } },
      async (req, reply) => {
        const row = await findJob(ctx, callerOf(req).user.id, req.params.id);
        const keys = row.status === 'completed' ? (row.resultKeys ?? (row.resultKey ? [row.resultKey] : [])) : [];
        const key = keys[req.query.index];
        if (!key) throw new AppError('NOT_FOUND');
        const bytes = await ctx.storage.get(key);
        const png = key.endsWith('.png');
        reply.header('content-type', png ? 'image/png' : 'image/jpeg');
        reply.header('content-disposition', `attachment; filename="${row.jobId}${req.query.index ? `-${req.query.index}` : ''}.${png ? 'png' : 'jpg'}"`);
        return reply.send(bytes);
      },
    );
  };
}
