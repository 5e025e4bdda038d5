import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { billingMails } from '../../db/schema';

/**
 * The once-per-event claim of every billing mail (issue 25, decision 041). A mail is claimed by
 * inserting its `(kind, eventKey)` under a unique index before it goes out: of any number of webhook
 * deliveries about one event (replays, parallel retries, the subscription event beside the invoice
 * event), exactly one insert succeeds and that caller sends. A send that fails releases the claim, so a
 * later delivery about the same event sends it then.
 */

/** The billing mails (issue 25): what a customer is told about money, one mail per event. */
export const BILLING_MAIL_KINDS = ['purchase', 'renewal', 'renewal_failed', 'refund', 'cancellation_scheduled', 'subscription_ended'] as const;
export type BillingMailKind = (typeof BILLING_MAIL_KINDS)[number];

/**
 * Claims the mail `kind` about `eventKey` for `userId`.
 * @returns the claim's id when this caller is to send it, null when another claim exists.
 */
export async function claimBillingMail(database: Database, userId: number, kind: BillingMailKind, eventKey: string): Promise<number | null> {
  const rows = await database.db.insert(billingMails).values({ userId, kind, eventKey }).onConflictDoNothing().returning({ id: billingMails.id });
  return rows[0]?.id ?? null;
}

/** Releases a claim whose mail could not be sent (a later delivery retries). Never throws. */
export async function releaseBillingMail(database: Database, claimId: number): Promise<void> {
  await database.db.delete(billingMails).where(eq(billingMails.id, claimId)).catch(() => undefined);
}

/** Whether the mail `kind` about `eventKey` was claimed (sent or being sent). */
export async function billingMailClaimed(database: Database, kind: BillingMailKind, eventKey: string): Promise<boolean> {
  const rows = await database.db.select({ id: billingMails.id }).from(billingMails).where(and(eq(billingMails.kind, kind), eq(billingMails.eventKey, eventKey)));
  return rows.length > 0;
}
