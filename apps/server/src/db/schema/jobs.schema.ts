import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { HISTORY_SOURCES, JOB_STATUSES, type JobErrorCode } from '@dewy/contracts';
import { apiKeys } from './api-keys.schema';
import { users } from './users.schema';

/** Who can start a job: the signed-in user, or (issue 24) one of the user's API keys. */
export const JOB_ACTOR_KINDS = ['user', 'api_key'] as const;

/** `'a','b',…` of a list of literals, for a CHECK (the lists are our own constants, never input). */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(','));

/**
 * Paid jobs (GUIDE §3, decision 034): one row per job of any tool, from the charge to its end. It was
 * the `images` table (the history of 001 §3); the presenters map it to the spec's wire shapes
 * (`/api/image/status`, history items with `image_url`, `runpod_job_id`…), which did not change.
 *
 * - Who: `user_id` owns it (the credits are the user's); `actor_kind` / `api_key_id` say who started it
 *   (`api_key_id` set exactly for `api_key`, a key of `api_keys`: keys are revoked, never deleted).
 * - `batch_id`: the batch it belongs to (issue 24), null for a single job.
 * - A failed job stores why in `error_code` (a JobErrorCode: set exactly when `status = 'failed'`) and
 *   a free-text detail for the logs in `error`; nothing parses `error`.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    actorKind: text('actor_kind', { enum: JOB_ACTOR_KINDS }).notNull().default('user'),
    /** The API key that started the job (issue 24); null when the user did. */
    apiKeyId: integer('api_key_id').references(() => apiKeys.id),
    /** The batch the job belongs to (issue 24); null for a single job. */
    batchId: uuid('batch_id'),
    /** Where the job's end is POSTed, signed (decision 040 §3); only for jobs an API key started. */
    webhookUrl: text('webhook_url'),
    source: text('source', { enum: HISTORY_SOURCES }).notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    jobId: text('job_id').notNull(),
    /** Queue (job) name of the tool that processes this row; recovery asks this queue about it. */
    jobName: text('job_name').notNull(),
    /** Id of the durable queue job (pg-boss) that processes this row. */
    queueJobId: text('queue_job_id'),
    /** SHA-256 of the request body sent with an Idempotency-Key: a reused key with another body is refused. */
    requestHash: text('request_hash'),
    /** Set by the worker running the job every few seconds; a stale one means the worker died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** The stored upload the job reads; null for tools without an input image (generation, chat). */
    originalKey: text('original_key'),
    resultKey: text('result_key'),
    /** Every result of a multi-image job (image generation), `resultKey` first; null for one-image tools (decision 024). */
    resultKeys: jsonb('result_keys').$type<string[]>(),
    input: jsonb('input').notNull(),
    /** The input's prompt, kept apart for the history's search (`q`) and items. */
    prompt: text('prompt'),
    seed: integer('seed'),
    cost: integer('cost').notNull(),
    /** Idempotency key of the ledger spend, refunded under `refund:<key>`. */
    spendKey: text('spend_key').notNull(),
    /** Result size (px). */
    width: integer('width'),
    height: integer('height'),
    originalWidth: integer('original_width'),
    originalHeight: integer('original_height'),
    /** The engine that ran the job (the tool's `engineName`). */
    engine: text('engine'),
    /** Free-form facts of the result (model, `partial`, `delivered`, Kling's task id…). */
    meta: jsonb('meta'),
    /** Why a failed job failed (decision 034); null unless `status = 'failed'`. */
    errorCode: text('error_code').$type<JobErrorCode>(),
    /** Free-text detail of a failure, for the logs (and image edit's dialog message); never parsed. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When the retention job deleted its files (002 §9: 30 days after processing); the row stays as history. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    /**
     * When its owner deleted it from the history (issue 28, point 12): its files are gone and it is in no
     * list and no status answer; the row stays for the ledger's spend and the batch it belonged to.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_job_id_uq').on(t.jobId),
    index('jobs_user_source_idx').on(t.userId, t.source, t.createdAt),
    index('jobs_status_idx').on(t.status),
    index('jobs_batch_idx').on(t.batchId).where(sql`${t.batchId} IS NOT NULL`),
    check('jobs_actor_kind_valid', sql`${t.actorKind} in (${sqlList(JOB_ACTOR_KINDS)})`),
    check('jobs_api_key_actor', sql`(${t.actorKind} = 'api_key') = (${t.apiKeyId} IS NOT NULL)`),
    check('jobs_webhook_needs_api_key', sql`${t.webhookUrl} IS NULL OR ${t.apiKeyId} IS NOT NULL`),
    check('jobs_source_valid', sql`${t.source} in (${sqlList(HISTORY_SOURCES)})`),
    check('jobs_status_valid', sql`${t.status} in (${sqlList(JOB_STATUSES)})`),
    check('jobs_error_code_when_failed', sql`(${t.status} = 'failed') = (${t.errorCode} IS NOT NULL)`),
  ],
);

/** A row of {@link jobs}. */
export type JobRow = typeof jobs.$inferSelect;
