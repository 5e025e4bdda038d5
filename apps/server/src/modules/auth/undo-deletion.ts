import { createHmac, timingSafeEqual } from 'node:crypto';
import { ACCOUNT_RULES } from '@dewy/contracts';
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { AppServices } from '../../context';
import { users, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/*
 * The undo window of an account deletion (002 §9, decision 020): a sign-in (password or social) during
 * the grace period answers ACCOUNT_DELETION_PENDING with a token instead of a session, and the token
 * restores the account and signs it in. Both halves are sign-ins, so they live with auth; the deletion
 * request and the purge stay in modules/account, which sits above auth (decision 039).
 */

const undoSig = (secret: string, body: string) => createHmac('sha256', secret).update(`dewy:undo-deletion:${body}`).digest('base64url');

/**
 * The token a sign-in during the grace period answers with (ACCOUNT_DELETION_PENDING details): proof
 * that this user has just authenticated (password, or the social sign-in, which may call this too),
 * valid ACCOUNT_RULES.undoTokenTtlMs. Format `<userId>.<expiry ms>.<HMAC>`.
 */
export function issueUndoDeletionToken(secret: string, userId: number, now: Date = new Date()): string {
  const body = `${userId}.${now.getTime() + ACCOUNT_RULES.undoTokenTtlMs}`;
  return `${body}.${undoSig(secret, body)}`;
}

/** @returns the user id of a valid undo token. @throws AppError TOKEN_INVALID, TOKEN_EXPIRED */
function readUndoToken(secret: string, token: string, now: Date): number {
  const [id, exp, sig, ...rest] = token.split('.');
  if (!id || !exp || !sig || rest.length || !/^\d+$/.test(id) || !/^\d+$/.test(exp)) throw new AppError('TOKEN_INVALID');
  const want = Buffer.from(undoSig(secret, `${id}.${exp}`));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw new AppError('TOKEN_INVALID');
  if (Number(exp) <= now.getTime()) throw new AppError('TOKEN_EXPIRED');
  return Number(id);
}

/**
 * POST /api/auth/undo-deletion: restores an account whose deletion is pending (002 §9 undo window).
 * A subscription cancelled by the request stays cancelled at period end (the customer may resume it on My Page).
 * @returns the restored user (the route then signs them in)
 * @throws AppError TOKEN_INVALID (forged, or nothing to undo: undone, past the grace period, purged), TOKEN_EXPIRED
 */
export async function undoAccountDeletion(s: Pick<AppServices, 'secret' | 'database' | 'log'>, token: string, now: Date = new Date()): Promise<UserRow> {
  const userId = readUndoToken(s.secret, token, now);
  const rows = await s.database.db
    .update(users)
    .set({ deletionRequestedAt: null, deletionDueAt: null, updatedAt: now })
    .where(and(eq(users.id, userId), isNotNull(users.deletionRequestedAt), gt(users.deletionDueAt, now), isNull(users.deletedAt)))
    .returning();
  const user = rows[0];
  if (!user) throw new AppError('TOKEN_INVALID', { message: 'no pending deletion' });
  s.log.info({ userId }, 'account deletion undone');
  return user;
}
