import { createHash } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import { welcomeGrants } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { grant } from '../credits/credits.service';
import { normalizeEmail } from '../users/users.service';

/** SHA-256 (hex) of the normalised address: the key of `welcome_grants` (no address kept in clear). */
export function welcomeEmailHash(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}

/**
 * Grants the welcome credits (one-time bucket, ledger reason `welcome`) once per verified address,
 * ever (issue 14, decision 020): the address's hash is claimed in `welcome_grants` under its primary
 * key, so parallel calls, a second account of the same address after a deletion, and replays get
 * nothing. Call it only for an address the user has proved (a verification link, or a provider's
 * verified e-mail). Runs in the caller's transaction when given one (else its own).
 * @param args.userId the account to credit; args.email the verified address (normalised here the way
 *   sign-up does: trimmed, lower-cased); args.amount credits (> 0; 0 grants nothing and returns false)
 * @returns true when this call granted the credits, false when the address had them before
 */
export async function grantWelcomeCreditsOnce(tx: DbOrTx, args: { userId: number; email: string; amount: number }): Promise<boolean> {
  if (args.amount <= 0) return false;
  return inTransaction(tx, async (t) => {
    const claimed = await t
      .insert(welcomeGrants)
      .values({ emailHash: welcomeEmailHash(args.email), userId: args.userId })
      .onConflictDoNothing()
      .returning({ emailHash: welcomeGrants.emailHash });
    if (!claimed.length) return false;
    await grant(t, { userId: args.userId, amount: args.amount, bucket: 'one_time', reason: 'welcome', idempotencyKey: `welcome:${args.userId}` });
    return true;
  });
}
