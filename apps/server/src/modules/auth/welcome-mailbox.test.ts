import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { creditLedger, users, welcomeGrants } from '../../db/schema';
import { MIGRATIONS_DIR } from '../../db/client';
import { canonicalMailbox } from '../../lib/mailbox';
import { purgeDeletedAccounts } from '../account';
import { legacyWelcomeAddressHash, welcomeMailboxHash } from './welcome-credits';

const DAY = 86_400_000;

describe('canonicalMailbox (one key per inbox)', () => {
  it('folds plus-tags everywhere, and dots and googlemail.com for Gmail only', () => {
    for (const alias of ['x@gmail.com', 'X@Gmail.com', ' x+1@gmail.com ', 'x@googlemail.com', 'x+again@googlemail.com']) {
      expect(canonicalMailbox(alias), alias).toBe('x@gmail.com');
    }
    expect(canonicalMailbox('j.o.e+shop@gmail.com')).toBe('joe@gmail.com');
    expect(canonicalMailbox('Jane.Doe+tag@outlook.com')).toBe('jane.doe@outlook.com'); // dots count outside Gmail
    expect(canonicalMailbox('kim.min+x@naver.com')).toBe('kim.min@naver.com');
    expect(canonicalMailbox('+tag@example.com')).toBe('+tag@example.com'); // no name before the tag: kept
    expect(canonicalMailbox('a+b+c@example.com')).toBe('a@example.com');
    expect(canonicalMailbox('x@gmail.com.evil.example')).toBe('x@gmail.com.evil.example');
    expect(canonicalMailbox('x@sub.gmail.com')).toBe('x@sub.gmail.com');
  });
});

/**
 * Issue 21 point 3: `x@gmail.com`, `x+1@gmail.com`, `x.x@gmail.com`, `x@googlemail.com` each got the
 * 300 welcome credits, and again after the 14-day purge. The once-per-address rule is keyed on the
 * canonical mailbox now (decision 031).
 */
/**
 * The backfill statement of migration 0018, as shipped, run on today's schema: the ledger column it reads
 * (`reason`, the sentence 'welcome') is `reason_code` since migration 0021, which mapped that sentence to the
 * code 'welcome' (decision 036).
 */
function shippedBackfill(): string {
  const file = fs.readFileSync(path.join(MIGRATIONS_DIR, '0018_canonical_mailbox_sign_in_history.sql'), 'utf8');
  const statement = file.split('--> statement-breakpoint').find((s) => s.includes('welcome-mailbox-backfill'))!;
  expect(statement).toContain(`l."reason" = 'welcome'`);
  return statement.replace(`l."reason" = 'welcome'`, `l."reason_code" = 'welcome'`);
}

describe.each(TEST_DATABASES)('welcome credits once per mailbox on $name', (kind) => {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.ctx.database.db;
  const welcomeOf = async (ids: number[]) =>
    (await db().select({ userId: creditLedger.userId, amount: creditLedger.delta }).from(creditLedger).where(and(inArray(creditLedger.userId, ids), eq(creditLedger.reasonCode, 'welcome'))));
  const register = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'Alias', email, password: 'pass-word-1' } });
  const idOf = async (email: string) => (await db().select({ id: users.id }).from(users).where(eq(users.emailNormalized, email.toLowerCase())))[0]!.id;

  it('each alias of one inbox gets nothing after the first', async () => {
    const name = `farm${++n}`;
    const first = await signUpAndLogin(t.app, `${name}@gmail.com`);
    expect(first.user.credits).toBe(300);
    for (const alias of [`${name}+1@gmail.com`, `${name.slice(0, 2)}.${name.slice(2)}@gmail.com`, `${name}@googlemail.com`, `${name.toUpperCase()}+x@GoogleMail.com`]) {
      const a = await signUpAndLogin(t.app, alias);
      expect(a.user.credits, alias).toBe(0);
    }
    // Another inbox is another customer.
    expect((await signUpAndLogin(t.app, `${name}x@gmail.com`)).user.credits).toBe(300);
  });

  it('after the account purge, an alias and the address itself still get nothing', async () => {
    const email = `purged${++n}@gmail.com`;
    const { cookie, user } = await signUpAndLogin(t.app, email, 'pass-word-1');
    expect(user.credits).toBe(300);
    const del = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { cookie }, payload: { password: 'pass-word-1' } });
    expect(del.statusCode).toBe(200);
    expect(await purgeDeletedAccounts(t.ctx, { now: new Date(Date.now() + 15 * DAY) })).toContain(user.id);
    for (const again of [email.replace('@', '+again@'), email]) {
      expect((await signUpAndLogin(t.app, again)).user.credits, again).toBe(0);
    }
  });

  it('10 aliases signed up and verified in parallel: exactly one welcome grant', async () => {
    const base = `race${++n}`;
    const aliases = Array.from({ length: 10 }, (_, i) => (i % 2 ? `${base}+${i}@gmail.com` : `${base.slice(0, 1)}${'.'.repeat(1)}${base.slice(1)}+p${i}@googlemail.com`));
    const regs = await Promise.all(aliases.map(register));
    for (const r of regs) expect(r.statusCode).toBe(201);
    const verified = await Promise.all(aliases.map((a) => verifyFromOutbox(t.app, a)));
    expect(verified.map((v) => v.welcomeCredits).sort((a, b) => b - a)).toEqual([300, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const ids = await Promise.all(aliases.map(idOf));
    const grants = await welcomeOf(ids);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.amount).toBe(300);
  });

  it('migration 0018: live accounts granted under the old key claim their mailbox; a purged account’s old key still blocks its own address', async () => {
    const live = `legacy${++n}+shop@gmail.com`;
    const purged = `gone${n}+old@example.com`;
    const { user } = await signUpAndLogin(t.app, live);
    expect(user.credits).toBe(300);
    // The state before 0018: the grant recorded under the plain address hash only; a purged account's row has no user.
    await db().delete(welcomeGrants).where(eq(welcomeGrants.userId, user.id));
    await db().insert(welcomeGrants).values([
      { emailHash: legacyWelcomeAddressHash(live), userId: user.id },
      { emailHash: legacyWelcomeAddressHash(purged), userId: null },
    ]);
    expect(await db().select().from(welcomeGrants).where(eq(welcomeGrants.emailHash, welcomeMailboxHash(live)))).toHaveLength(0);
    // The backfill statement of the migration, as shipped.
    const backfill = shippedBackfill();
    await db().execute(sql.raw(backfill));
    const rows = await db().select().from(welcomeGrants).where(eq(welcomeGrants.emailHash, welcomeMailboxHash(live)));
    expect(rows).toEqual([expect.objectContaining({ userId: user.id })]);
    expect((await signUpAndLogin(t.app, live.replace('+shop', '').replace('legacy', 'le.gacy'))).user.credits).toBe(0);
    // The purged account's exact address is still blocked by its old key.
    expect((await signUpAndLogin(t.app, purged)).user.credits).toBe(0);
  });

  it('the SQL of the backfill computes the same mailbox as canonicalMailbox', async () => {
    const samples = ['a.b.c+d@gmail.com', 'A.B@GoogleMail.com', '+x@example.com', 'p.q+r+s@naver.com', '.@gmail.com', 'x@gmail.com.evil.example'];
    const backfill = shippedBackfill();
    for (const email of samples) {
      const [u] = await db().insert(users).values({ email, emailNormalized: email.toLowerCase(), nickname: 'sql', passwordHash: null }).returning();
      await db().insert(welcomeGrants).values({ emailHash: `probe-${u!.id}`, userId: u!.id });
      await db().execute(sql.raw(backfill));
      const hashes = (await db().select().from(welcomeGrants).where(eq(welcomeGrants.userId, u!.id))).map((r) => r.emailHash);
      expect(hashes, email).toContain(welcomeMailboxHash(email));
    }
  });
});
