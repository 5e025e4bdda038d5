import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { welcomeGrants } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { canonicalMailbox } from '../../lib/mailbox';
import { grant } from '../credits';
import { normalizeEmail } from '../users';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * SHA-256 (hex) of the address's canonical mailbox (`canonicalMailbox`: `+tag`, and for Gmail dots and
 * googlemail.com, folded): the key of `welcome_grants` since decision 031 (no address kept in clear).
 */
export function welcomeMailboxHash(email: string): string {
  return sha256(canonicalMailbox(email));
}

/**
 * SHA-256 (hex) of the plain normalised address (trim + lower case): the key rows had before decision
 * 031. Rows of accounts purged before migration 0018 keep it (their address is gone, so their mailbox
 * cannot be computed), and it still blocks that exact address.
 */
export function legacyWelcomeAddressHash(email: string): string {
  return sha256(normalizeEmail(email));
}

/**
 * Grants the welcome credits (one-time bucket, ledger reason code `welcome`) once per mailbox, ever (issue
 * 14 and issue 21 point 3; decisions 020 and 031): the hash of the address's canonical mailbox is claimed
 * in `welcome_grants` under its primary key, so aliases of one inbox (`x@gmail.com`, `x+1@gmail.com`,
 * `x.x@gmail.com`, `x@googlemail.com`), parallel calls, a second account after a deletion purge, and
 * replays get nothing. A row under the address's pre-031 key (plain address hash) blocks too. Call it
 * only for an address the user has proved (a verification link, or a provider's verified e-mail). Runs
 * in the caller's transaction when given one (else its own).
 * @param args.userId the account to credit; args.email the verified address (as typed or normalised);
 *   args.amount credits (> 0; 0 grants nothing and returns false)
 * @returns true when this call granted the credits, false when the mailbox had them before
 */
export async function grantWelcomeCreditsOnce(tx: DbOrTx, args: { userId: number; email: string; amount: number }): Promise<boolean> {
  if (args.amount <= 0) return false;
  return inTransaction(tx, async (t) => {
    const key = welcomeMailboxHash(args.email);
    const claimed = await t.insert(welcomeGrants).values({ emailHash: key, userId: args.userId }).onConflictDoNothing().returning({ emailHash: welcomeGrants.emailHash });
    if (!claimed.length) return false;
    // A grant recorded under the old key of this very address (before 0018; no new rows get that key,
    // so no race): the mailbox is now claimed under its canonical key as well, without a second grant.
    const legacy = legacyWelcomeAddressHash(args.email);
    if (legacy !== key && (await t.select({ h: welcomeGrants.emailHash }).from(welcomeGrants).where(eq(welcomeGrants.emailHash, legacy))).length) return false;
    await grant(t, { userId: args.userId, amount: args.amount, bucket: 'one_time', reason: { code: 'welcome' }, idempotencyKey: `welcome:${args.userId}` });
    return true;
  });
}
