import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, getTableColumns, is } from 'drizzle-orm';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import * as schema from '../../db/schema';
import { PURGE_RETAINED_TABLES, purgeDeletedAccounts } from './account-deletion.service';

const DAY = 86_400_000;

/** Every table of the drizzle schema with a column that references `users`, with those columns (from the foreign keys). */
function tablesReferencingUsers(): { name: string; table: PgTable; columns: PgColumn[] }[] {
  const out: { name: string; table: PgTable; columns: PgColumn[] }[] = [];
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const columns = config.foreignKeys
      .map((fk) => fk.reference())
      .filter((ref) => getTableConfig(ref.foreignTable).name === 'users')
      .flatMap((ref) => ref.columns);
    if (columns.length) out.push({ name: config.name, table: value, columns });
  }
  return out;
}

/**
 * Issue 21 point 11: the 14-day purge must leave no row of the purged account in any table that references
 * users — except the ones kept on purpose under the tombstone (PURGE_RETAINED_TABLES, each with its reason).
 * The tables come from the drizzle schema's foreign keys, not from a hand list: a table added later is
 * either emptied by the purge, or listed as retained, or this test fails (unseeded, or rows left). Both databases.
 */
describe.each(TEST_DATABASES)('account purge leaves no personal rows on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rowsOf = async (table: PgTable, columns: PgColumn[], userId: number) => {
    let total = 0;
    for (const c of columns) total += (await t.ctx.database.db.select({ n: count() }).from(table).where(eq(c, userId)))[0]!.n;
    return total;
  };

  it('finds the user tables from the schema (the AI chat among them)', () => {
    const names = tablesReferencingUsers().map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['ai_threads', 'ai_messages', 'metered_calls', 'uploads', 'jobs', 'sessions', 'credit_ledger']));
    for (const retained of Object.keys(PURGE_RETAINED_TABLES)) expect(names, `${retained} is listed as retained but references no user`).toContain(retained);
  });

  it('after the purge no table but the retained ones holds a row of the purged account', async () => {
    const db = t.ctx.database.db;
    // The real flows: sign-up (welcome grant, verification token, ledger), sign-in (session), an upload.
    const { cookie, user } = await signUpAndLogin(t.app, undefined, 'pass-word-1');
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(200, 150));
    const imageUrl = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl as string;
    expect(imageUrl).toBeTruthy();
    const [upload] = await db.select().from(schema.uploads).where(eq(schema.uploads.userId, user.id));
    // Direct inserts for what needs a vendor or another party.
    await db.insert(schema.jobs).values({ userId: user.id, source: 'upscale', status: 'completed', jobId: `purge-${user.id}`, jobName: 'upscale', originalKey: upload!.key, input: {}, cost: 0, spendKey: `purge-${user.id}`, requestHash: 'x' });
    const [apiKey] = await db.insert(schema.apiKeys).values({ userId: user.id, name: 'studio', prefix: 'dewy_sk_abcdefgh', secretHash: `hash-${user.id}` }).returning();
    const [apiJob] = await db.insert(schema.jobs).values({ userId: user.id, actorKind: 'api_key', apiKeyId: apiKey!.id, source: 'upscale', status: 'completed', jobId: `purge-api-${user.id}`, jobName: 'upscale', input: {}, cost: 0, spendKey: `purge-api-${user.id}`, requestHash: 'x', webhookUrl: 'https://hooks.example.com/dewy' }).returning();
    await db.insert(schema.webhookDeliveries).values({ jobRowId: apiJob!.id, userId: user.id, apiKeyId: apiKey!.id, eventType: 'job.completed', messageId: `msg_purge_${user.id}`, url: 'https://hooks.example.com/dewy' });
    await db.insert(schema.apiIdempotencyKeys).values({ userId: user.id, route: 'uploads', key: 'k-1', requestHash: 'h', statusCode: 200, response: {} });
    const batchId = randomUUID();
    await db.insert(schema.batches).values({ id: batchId, userId: user.id, tool: 'upscale', options: {} });
    await db.insert(schema.batchPhotos).values({ batchId, position: 0, name: '가족 사진.jpg', image: 'x', jobRowId: apiJob!.id });
    const [thread] = await db.insert(schema.aiThreads).values({ userId: user.id, kind: 'chat', title: 'my private question' }).returning();
    await db.insert(schema.aiMessages).values({ threadId: thread!.id, userId: user.id, role: 'user', text: 'something personal', imageKey: upload!.key });
    await db.insert(schema.meteredCalls).values({ userId: user.id, operation: 'chat', cost: 0, status: 'completed', threadId: thread!.id, spendKey: `metered:purge-${user.id}` });
    const [rewrite] = await db.insert(schema.aiThreads).values({ userId: user.id, kind: 'rewrite', title: 'brighter' }).returning();
    await db.insert(schema.aiMessages).values({ threadId: rewrite!.id, userId: user.id, role: 'assistant', text: 'a brighter cat' });
    await db.insert(schema.userIdentities).values({ userId: user.id, provider: 'google', subject: `sub-${user.id}`, email: 'x@example.com', emailVerified: true });
    await db.insert(schema.affiliateCodes).values({ userId: user.id, code: `code${user.id}` });
    await db.insert(schema.affiliateClicks).values({ sharerId: user.id, ipHash: 'hash' });
    await db.insert(schema.notices).values({ title: 'Hello', content: 'Notice', authorName: 'Tester', createdBy: user.id });

    const tables = tablesReferencingUsers();
    const purged = tables.filter((x) => !(x.name in PURGE_RETAINED_TABLES));
    for (const { name, table, columns } of purged) {
      expect(await rowsOf(table, columns, user.id), `table ${name} references users but this test does not seed it: seed it above, then purge it or list it in PURGE_RETAINED_TABLES with the reason`).toBeGreaterThan(0);
    }

    expect((await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { cookie }, payload: { password: 'pass-word-1' } })).statusCode).toBe(200);
    expect(await purgeDeletedAccounts(t.ctx, { now: new Date(Date.now() + 15 * DAY) })).toEqual([user.id]);

    for (const { name, table, columns } of purged) expect(await rowsOf(table, columns, user.id), `rows of the purged account left in ${name}`).toBe(0);
    // The notice stays (public content), without its author.
    const [notice] = await db.select().from(schema.notices).where(eq(schema.notices.title, 'Hello'));
    expect(notice).toMatchObject({ createdBy: null, authorName: null });
    // The tombstone keeps no personal column (sanity: every text column of the users row is anonymous).
    const [tomb] = await db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(tomb).toMatchObject({ nickname: '', passwordHash: '' });
    expect(Object.keys(getTableColumns(schema.users))).toContain('email');
    expect(tomb!.email).toBe(`deleted-${user.id}@deleted.invalid`);
  });
});
