import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { jobs, webhookDeliveries, type WebhookEventType } from '../../db/schema';

/**
 * Writes the webhook message a job's end owes its `webhook_url` into the outbox (decision 040 §3),
 * inside the transaction that ends the job: one INSERT … SELECT, a no-op for a job without a webhook.
 * The message is due at once; public-api's sender posts it, signed, and retries it. Called by every
 * end of a job: completion (the handler), failure and refund (failAndRefund: the handler, recovery,
 * shutdown) and cancellation.
 * @param tx the transaction that flipped the job's status
 * @param jobRowId `jobs.id`
 * @param type `job.completed` or `job.failed`
 */
export async function recordJobWebhook(tx: DbOrTx, jobRowId: number, type: WebhookEventType): Promise<void> {
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  await tx.execute(sql`
    insert into ${webhookDeliveries} (job_row_id, user_id, api_key_id, event_type, message_id, url)
    select ${jobs.id}, ${jobs.userId}, ${jobs.apiKeyId}, ${type}, ${messageId}, ${jobs.webhookUrl}
    from ${jobs}
    where ${jobs.id} = ${jobRowId} and ${jobs.webhookUrl} is not null and ${jobs.apiKeyId} is not null`);
}
