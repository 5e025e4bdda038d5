import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { ledgerReasonText, parseLedgerReason } from '@dewy/contracts';
import { MIGRATIONS_DIR } from '../../db/client';
import { createPostgresDatabase } from '../../../test/helpers/databases';
import { postgresReachable } from '../../../test/helpers/db-templates';

/**
 * Migration 0021 (decision 036): the ledger's old reason sentences become codes with typed parameters. A
 * database migrated up to 0019 gets rows with every sentence the server has written, then the rest of the
 * migrations run: each row holds the code and parameters below, and `ledgerReasonText` gives back the very
 * sentence it had (so the history's `reason` field is unchanged for old rows). Both databases.
 */

/** A migrations folder whose journal stops before migration 0021. */
function migrationsBefore0021(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-mig-'));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string; idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.tag < '0021');
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

const CALL_ID = '0b0c6a4e-1111-4222-8333-444455556666';

/** [kind, bucket, old sentence, idempotency key, expected code, expected params]. */
const ROWS: [string, string, string, string, string, Record<string, unknown>][] = [
  ['grant', 'one_time', 'welcome', 'welcome:1', 'welcome', {}],
  ['grant', 'one_time', 'pack package3', 'pay:sandbox:order:1', 'pack_purchase', { pack: 'package3' }],
  ['grant', 'subscription', 'initial basic', 'pay:sandbox:invoice:1', 'plan_period', { invoice: 'initial', plan: 'basic' }],
  ['grant', 'subscription', 'renewal premium', 'pay:sandbox:invoice:2', 'plan_period', { invoice: 'renewal', plan: 'premium' }],
  ['grant', 'subscription', 'other deluxe', 'pay:sandbox:invoice:3', 'plan_period', { invoice: 'other', plan: 'deluxe' }],
  ['grant', 'subscription', 'upgrade basic→deluxe', 'pay:sandbox:invoice:4', 'plan_upgrade', { from: 'basic', to: 'deluxe' }],
  ['grant', 'bonus', 'affiliate reward', 'affiliate:reward:1', 'affiliate_reward', {}],
  ['spend', 'one_time', 'upscale', 'upscale:1:a', 'tool_job', { source: 'upscale' }],
  ['spend', 'one_time', 'face_edit', 'face-edit:1:a', 'tool_job', { source: 'face_edit' }],
  ['spend', 'one_time', 'ai rewrite', `ai:${CALL_ID}`, 'ai_call', { operation: 'rewrite' }],
  ['refund', 'one_time', 'job failed', 'refund:upscale:1:a', 'job_refund', {}],
  ['refund', 'one_time', 'partial result', 'refund:kling:1:a', 'job_partial_refund', {}],
  ['refund', 'bonus', 'ai failed: AI_TIMEOUT', `refund:ai:${CALL_ID}`, 'ai_call_refund', { operation: 'rewrite', error: 'AI_TIMEOUT' }],
  ['refund', 'one_time', 'ai rewrite never applied', 'refund:ai:other', 'ai_call_refund', { operation: 'rewrite', error: 'NOTHING_TO_CHARGE' }],
  ['expire', 'subscription', 'new subscription period', 'expire:sandbox:invoice:2', 'period_expired', {}],
  ['expire', 'subscription', 'subscription ended', 'expire:sandbox:subscription:1:end', 'subscription_ended', {}],
  ['expire', 'subscription', 'renewal premium (its subscription period has ended)', 'pay:sandbox:invoice:9:expire', 'ended_period', { of: { code: 'plan_period', invoice: 'renewal', plan: 'premium' } }],
  ['expire', 'subscription', 'job failed (its subscription period has ended)', 'refund:upscale:1:b:expire', 'ended_period', { of: { code: 'job_refund' } }],
  ['reclaim', 'one_time', 'refund of pack package1', 'reclaim:sandbox:order:1:100', 'pack_refunded', { pack: 'package1' }],
  ['reclaim', 'subscription', 'refund of renewal invoice', 'reclaim:sandbox:invoice:2:100', 'invoice_refunded', { invoice: 'renewal' }],
  ['reclaim', 'bonus', 'affiliate reward reversed (refund)', 'affiliate:reverse:1:50', 'affiliate_reward_reversed', {}],
  ['reclaim', 'one_time', 'debt settlement', 'pay:sandbox:order:2:settle', 'debt_settlement', {}],
  ['grant', 'one_time', 'operator gift', 'gift:1', 'legacy', { text: 'operator gift' }],
];

type Exec = (q: string) => Promise<{ rows: Record<string, unknown>[] }>;

async function seedAndCheck(exec: Exec, migrateRest: () => Promise<void>) {
  const [u] = (await exec(`INSERT INTO users (email, email_normalized, nickname) VALUES ('old@example.com', 'old@example.com', 'old') RETURNING id`)).rows;
  const userId = Number(u!.id);
  await exec(`INSERT INTO ai_requests (id, user_id, kind, cost, status, error_code) VALUES ('${CALL_ID}', ${userId}, 'rewrite', 3, 'refunded', 'AI_TIMEOUT')`);
  for (const [i, [kind, bucket, reason, key]] of ROWS.entries()) {
    const delta = kind === 'grant' || kind === 'refund' ? 10 + i : -(10 + i);
    await exec(`INSERT INTO credit_ledger (user_id, delta, bucket, kind, reason, idempotency_key) VALUES (${userId}, ${delta}, '${bucket}', '${kind}', '${reason.replace(/'/g, "''")}', '${key}')`);
  }
  await migrateRest();
  const rows = (await exec(`SELECT idempotency_key, reason_code, reason_params FROM credit_ledger WHERE user_id = ${userId} ORDER BY id`)).rows;
  expect(rows).toHaveLength(ROWS.length);
  for (const [i, [, , sentence, key, code, params]] of ROWS.entries()) {
    const row = rows[i]!;
    const got = typeof row.reason_params === 'string' ? JSON.parse(row.reason_params) : row.reason_params;
    expect(row.idempotency_key).toBe(key);
    expect({ code: row.reason_code, params: got }, sentence).toEqual({ code, params });
    expect(parseLedgerReason(code, got), sentence).not.toBeNull();
    expect(ledgerReasonText(String(row.reason_code), got), sentence).toBe(sentence);
  }
  const columns = (await exec(`SELECT column_name FROM information_schema.columns WHERE table_name = 'credit_ledger'`)).rows.map((r) => r.column_name);
  expect(columns).not.toContain('reason');
  const [call] = (await exec(`SELECT operation, spend_key FROM metered_calls WHERE id = '${CALL_ID}'`)).rows;
  expect(call).toEqual({ operation: 'rewrite', spend_key: `ai:${CALL_ID}` });
}

const pgOk = await postgresReachable();

describe('migration 0021: ledger sentences → reason codes', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => {});
  });

  it('on PGlite', async () => {
    const client = new PGlite();
    cleanups.push(() => client.close());
    const db = drizzlePglite(client);
    await migratePglite(db as never, { migrationsFolder: migrationsBefore0021() });
    await seedAndCheck(
      async (q) => ({ rows: (await client.query<Record<string, unknown>>(q)).rows }),
      () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    );
  }, 120_000);

  it.runIf(pgOk)('on PostgreSQL', async () => {
    const created = await createPostgresDatabase();
    const pool = new pg.Pool({ connectionString: created.url, max: 2 });
    cleanups.push(async () => {
      await pool.end();
      await created.drop();
    });
    const db = drizzlePg(pool);
    await migratePg(db as never, { migrationsFolder: migrationsBefore0021() });
    await seedAndCheck(
      async (q) => ({ rows: (await pool.query(q)).rows as Record<string, unknown>[] }),
      () => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    );
  }, 120_000);
});
