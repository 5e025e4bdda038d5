import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { affiliateClicks, affiliateCodes, affiliateReferrals, affiliateRewards, sessions, users } from '../../db/schema';
import { canonicalMailbox } from '../../lib/mailbox';
import { clientKey } from '../../lib/rate-limit';
import { grant, reclaim } from '../credits';
import { recentSignInMatch, SIGN_IN_HISTORY_DAYS, type SignInTrace } from '../users';

/**
 * The affiliate programme (spec 001 §1/§7/§9, decision 013).
 * - One code per sharer: 12 URL-safe characters from 72 random bits, created once (`ensureCode` is
 *   idempotent under concurrency: insert-or-nothing on the user, then read).
 * - A click records the sharer and campaign (the client address only as a keyed hash) and sets the
 *   attribution cookie (`dewy_aff`, HMAC-signed, last click wins, `AFFILIATE_COOKIE_DAYS`).
 * - At sign-up the cookie attributes the new account to the sharer, once. A referral that looks like
 *   self-referral (same mailbox, or the sharer's own network or browser) is recorded as ineligible.
 * - Each payment of a referred customer that grants credits earns the sharer half of them as bonus
 *   credits, in the same transaction as the grant, once per payment; a refund reverses the same share.
 */

export const AFFILIATE_COOKIE = 'dewy_aff';
/** Share of purchased credits a sharer earns (001 §9: half). */
export const REWARD_SHARE = 0.5;

/** A new random code: 9 bytes → 12 base64url characters. */
function newCode(): string {
  return randomBytes(9).toString('base64url');
}

/** The user's affiliate code, created on first call; concurrent calls all get the same one. */
export async function ensureCode(db: Db, userId: number): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await db.insert(affiliateCodes).values({ userId, code: newCode() }).onConflictDoNothing({ target: affiliateCodes.userId });
    } catch (err) {
      // A code collision (72 bits: practically never) — try another.
      if ((err as { code?: string }).code === '23505') continue;
      throw err;
    }
    const row = (await db.select({ code: affiliateCodes.code }).from(affiliateCodes).where(eq(affiliateCodes.userId, userId)))[0];
    if (row) return row.code;
  }
  throw new Error('could not allocate an affiliate code');
}

/** The sharer of a code, or null. */
export async function sharerOf(db: DbOrTx, code: string): Promise<number | null> {
  const row = (await db.select({ userId: affiliateCodes.userId }).from(affiliateCodes).where(eq(affiliateCodes.code, code)))[0];
  return row?.userId ?? null;
}

const sign = (secret: string, value: string) => createHmac('sha256', secret).update(`aff:${value}`).digest('base64url');

/** The attribution cookie's value: `<code>.<clickId>.<campaign?>.<issued ms>.<hmac>`. */
export function attributionCookie(secret: string, v: { code: string; clickId: number; campaign: string | null }, now = Date.now()): string {
  const body = `${v.code}.${v.clickId}.${v.campaign ? Buffer.from(v.campaign).toString('base64url') : ''}.${now}`;
  return `${body}.${sign(secret, body)}`;
}

/** Reads a signed attribution cookie; null when absent, forged or older than `maxAgeMs`. */
export function readAttributionCookie(secret: string, value: string | undefined, maxAgeMs: number, now = Date.now()): { code: string; clickId: number; campaign: string | null } | null {
  if (!value || value.length > 400) return null;
  const parts = value.split('.');
  if (parts.length !== 5) return null;
  const [code, click, campaign, issued, mac] = parts as [string, string, string, string, string];
  const want = Buffer.from(sign(secret, `${code}.${click}.${campaign}.${issued}`));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  if (!/^\d+$/.test(issued) || now - Number(issued) > maxAgeMs || !/^\d+$/.test(click)) return null;
  return { code, clickId: Number(click), campaign: campaign ? Buffer.from(campaign, 'base64url').toString('utf8') : null };
}

/** Keyed hash of a client address (IPv6 per /64), so clicks can be compared without keeping addresses. */
export function ipHash(secret: string, ip: string): string {
  return createHmac('sha256', secret).update(`ip:${clientKey(ip)}`).digest('hex').slice(0, 32);
}

/** Records a click on a sharer's link. @returns the click id, or null for an unknown code. */
export async function recordClick(db: Db, p: { code: string; campaign: string | null; ipHash: string }): Promise<number | null> {
  const sharer = await sharerOf(db, p.code);
  if (!sharer) return null;
  const row = (await db.insert(affiliateClicks).values({ sharerId: sharer, campaign: p.campaign, ipHash: p.ipHash }).returning({ id: affiliateClicks.id }))[0]!;
  return row.id;
}

/**
 * Attributes a new account to the sharer of the cookie's code (at most once per account). Ineligible
 * (recorded, never rewarded) when the e-mail reaches the sharer's own inbox (`canonicalMailbox`:
 * `same_email_owner`), or the sign-up came from a browser or network the sharer signed up or in from
 * within SIGN_IN_HISTORY_DAYS (`same_device` / `same_network`: the sharer's sign-in history, which
 * logout does not erase — issue 21 point 4, decision 031 — and, for sessions older than that history,
 * the sharer's sessions' addresses).
 * @param p.trace the sign-up request's trace (`signInTrace`: keyed hashes of its address and of the
 *   device cookie it carried); p.signupIp its address (`req.ip`)
 */
export async function attributeSignup(
  db: Db,
  p: { referredId: number; referredEmail: string; signupIp: string; trace: SignInTrace; attribution: { code: string; clickId: number; campaign: string | null } },
): Promise<{ sharerId: number; eligible: boolean } | null> {
  const sharerId = await sharerOf(db, p.attribution.code);
  if (!sharerId || sharerId === p.referredId) return null;
  const sharer = (await db.select({ email: users.email }).from(users).where(eq(users.id, sharerId)))[0];
  if (!sharer) return null;
  let reason: string | null = canonicalMailbox(sharer.email) === canonicalMailbox(p.referredEmail) ? 'same_email_owner' : await recentSignInMatch(db, sharerId, p.trace);
  if (!reason) {
    const since = new Date(Date.now() - SIGN_IN_HISTORY_DAYS * 86_400_000);
    const ips = await db.select({ ip: sessions.ip }).from(sessions).where(and(eq(sessions.userId, sharerId), gt(sessions.lastSeenAt, since))).limit(200);
    const mine = clientKey(p.signupIp);
    if (ips.some((r) => r.ip && clientKey(r.ip) === mine)) reason = 'same_network';
  }
  const inserted = await db
    .insert(affiliateReferrals)
    .values({ referredId: p.referredId, sharerId, clickId: p.attribution.clickId, campaign: p.attribution.campaign, eligible: reason === null, ineligibleReason: reason })
    .onConflictDoNothing()
    .returning({ sharerId: affiliateReferrals.sharerId });
  return inserted[0] ? { sharerId, eligible: reason === null } : null;
}

/**
 * Inside the transaction that granted a referred customer's payment: the sharer's reward, once per
 * payment (unique on payment id), as bonus credits. @returns credits rewarded (0 when none).
 */
export async function rewardReferral(tx: Tx, p: { referredId: number; paymentId: number; creditsGranted: number; reference: string }): Promise<number> {
  if (p.creditsGranted <= 0) return 0;
  const ref = (await tx.select().from(affiliateReferrals).where(eq(affiliateReferrals.referredId, p.referredId)))[0];
  if (!ref || !ref.eligible) return 0;
  const credits = Math.floor(p.creditsGranted * REWARD_SHARE);
  if (credits <= 0) return 0;
  const inserted = await tx
    .insert(affiliateRewards)
    .values({ paymentId: p.paymentId, sharerId: ref.sharerId, referredId: p.referredId, credits })
    .onConflictDoNothing()
    .returning({ id: affiliateRewards.id });
  if (!inserted[0]) return 0;
  await grant(tx, { userId: ref.sharerId, amount: credits, bucket: 'bonus', reason: { code: 'affiliate_reward' }, reference: p.reference, idempotencyKey: `affiliate:reward:${p.paymentId}` });
  return credits;
}

/**
 * A refund of a rewarded payment takes back the same share of the reward (from the sharer's bonus
 * credits first, never below zero; the rest becomes the sharer's credit debt). `reclaimedShare` is the
 * fraction of the payment's credits now taken back (0–1). @returns credits reversed by this call.
 */
export async function reverseReward(tx: Tx, p: { paymentId: number; reclaimedShare: number; reference: string }): Promise<number> {
  const row = (await tx.select().from(affiliateRewards).where(eq(affiliateRewards.paymentId, p.paymentId)).for('update'))[0];
  if (!row) return 0;
  const target = Math.min(row.credits, Math.floor(row.credits * Math.min(1, p.reclaimedShare) + 1e-9));
  const more = target - row.reversedCredits;
  if (more <= 0) return 0;
  await reclaim(tx, { userId: row.sharerId, amount: more, bucket: 'bonus', reason: { code: 'affiliate_reward_reversed' }, reference: p.reference, idempotencyKey: `affiliate:reverse:${p.paymentId}:${target}` });
  await tx.update(affiliateRewards).set({ reversedCredits: target }).where(eq(affiliateRewards.id, row.id));
  return more;
}

/** What a sharer sees on My Page: clicks, sign-ups, paid orders and the rewards they earned. */
export async function sharerStats(db: Db, sharerId: number) {
  const [clicks] = await db.select({ n: count() }).from(affiliateClicks).where(eq(affiliateClicks.sharerId, sharerId));
  const [signups] = await db.select({ n: count() }).from(affiliateReferrals).where(and(eq(affiliateReferrals.sharerId, sharerId), eq(affiliateReferrals.eligible, true)));
  const [rewards] = await db
    .select({ n: count(), credits: sql<string>`coalesce(sum(${affiliateRewards.credits} - ${affiliateRewards.reversedCredits}), 0)` })
    .from(affiliateRewards)
    .where(eq(affiliateRewards.sharerId, sharerId));
  return { clicks: clicks?.n ?? 0, signups: signups?.n ?? 0, paidOrders: rewards?.n ?? 0, rewardCredits: Number(rewards?.credits ?? 0) };
}
