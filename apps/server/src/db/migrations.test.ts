import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_DATABASES } from '../../test/helpers/databases';
import { errorOfRow } from '../modules/image-edit';
import { statusErrorOf } from '../modules/images';
import { MIGRATIONS_DIR } from './client';
import * as schema from './schema';
import type { JobRow } from './schema';

/**
 * The migrations themselves (decision 034), on a fresh PGlite and a fresh PostgreSQL database:
 * - every migration of the journal applies (the run's template is built by them, decision 033), and the
 *   database they build is the drizzle schema's: the same tables, columns (type, nullability, default),
 *   constraints, indexes and sequences as a database created straight from the schema (drizzle-kit's
 *   SQL for it), compared in the catalog;
 * - 0020 (images → jobs) keeps every row and backfills `error_code` from the old `CODE: detail`
 *   failure strings, so that both status answers present an old row exactly as before.
 */

/** A bare database: raw SQL and the drizzle migrator over any folder. */
interface RawDb {
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

/** Each database kind: a bare fresh database, and the run's migrated one (the global setup's template, decision 033). */
const KINDS: { name: string; open(): Promise<RawDb>; openMigrated(): Promise<Pick<RawDb, 'query' | 'close'>> }[] = [
  {
    name: 'pglite',
    openMigrated: () => migratedOf('pglite'),
    async open() {
      const client = new PGlite();
      await client.waitReady;
      const db = drizzlePglite(client);
      return {
        query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
        migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
        close: () => client.close(),
      };
    },
  },
  ...(TEST_DATABASES.some((k) => k.name === 'postgres')
    ? [
        {
          name: 'postgres',
          openMigrated: () => migratedOf('postgres'),
          async open(): Promise<RawDb> {
            const created = await createPostgresDatabase();
            const pool = new pg.Pool({ connectionString: created.url, max: 2 });
            const db = drizzlePg(pool);
            return {
              query: async (text, params) => (await pool.query(text, params)).rows as Record<string, unknown>[],
              migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
              async close() {
                await pool.end();
                await created.drop();
              },
            };
          },
        },
      ]
    : []),
];

/** The migrated database of the test helpers: every migration of the journal applied (a copy of the run's template, or migrated at open). */
async function migratedOf(name: 'pglite' | 'postgres'): Promise<Pick<RawDb, 'query' | 'close'>> {
  const db = await TEST_DATABASES.find((k) => k.name === name)!.open();
  return { query: async (text, params) => (await db.executor.executeSql(text, params)).rows as Record<string, unknown>[], close: () => db.dispose() };
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the migrations folder whose journal stops before migration `idx` (the files stay). */
function migrationsBefore(idx: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-mig-'));
  temps.push(dir);
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < idx);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/**
 * The public schema as the catalog describes it, one sorted line per object: tables; columns with
 * type, nullability and default (not their order: a migration appends columns); constraints as
 * PostgreSQL prints them (NOT NULL ones are the columns' nullability); indexes; sequences.
 */
async function catalog(db: Pick<RawDb, 'query'>): Promise<string[]> {
  const rows = await db.query(`
    select 'table ' || table_name as line from information_schema.tables where table_schema = 'public'
    union all
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || udt_name || ' ' || is_nullable || ' ' || coalesce(column_default, '-')
      from information_schema.columns where table_schema = 'public'
    union all
    select 'constraint ' || conrelid::regclass::text || '.' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace and contype <> 'n'
    union all
    select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'sequence ' || sequencename || ' ' || data_type::text from pg_sequences where schemaname = 'public'`);
  return rows.map((r) => String(r.line)).sort();
}

describe.each(KINDS)('migrations on a fresh $name', (kind) => {
  it('every migration of the journal applies, and the result is exactly the drizzle schema', async () => {
    const migrated = await kind.openMigrated();
    const fromSchema = await kind.open();
    try {
      // The drizzle schema's own DDL (what drizzle-kit would write for an empty database).
      const ddl = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(schema as Record<string, unknown>));
      for (const statement of ddl) await fromSchema.query(statement);
      const [a, b] = [await catalog(migrated), await catalog(fromSchema)];
      expect(a.length).toBeGreaterThan(100);
      expect(a.filter((l) => !b.includes(l)), 'in the migrated database, not in the schema').toEqual([]);
      expect(b.filter((l) => !a.includes(l)), 'in the schema, not in the migrated database').toEqual([]);
      expect(a).toContain('table jobs');
      expect(a).not.toContain('table images');
    } finally {
      await migrated.close();
      await fromSchema.close();
    }
  });

  it('0020 turns images into jobs in place and backfills error_code from the old `CODE: detail` strings', async () => {
    const db = await kind.open();
    try {
      await db.migrate(migrationsBefore(20));
      const [user] = await db.query(`insert into users (email, email_normalized, nickname) values ('old@example.com', 'old@example.com', 'Old') returning id`);
      // [stored error, status, source] before 0020 → [error_code, error] after, and the wire answers the
      // presenters gave before 0020 (`/api/image/status` error; image edit's error code and message).
      const cases: [string | null, string, string, string | null, string | null, string | null, { code: string; message: string } | null][] = [
        ['GENERATION_SAFETY_BLOCKED: all 2 generated image(s) flagged by the content screen', 'failed', 'kling', 'GENERATION_SAFETY_BLOCKED', 'all 2 generated image(s) flagged by the content screen', 'GENERATION_SAFETY_BLOCKED', { code: 'GENERATION_SAFETY_BLOCKED', message: 'all 2 generated image(s) flagged by the content screen' }],
        ['InvalidParameter.OversizeImage: the image exceeds 10 MB', 'failed', 'seedream', 'InvalidParameter.OversizeImage', 'the image exceeds 10 MB', 'JOB_FAILED', { code: 'InvalidParameter.OversizeImage', message: 'the image exceeds 10 MB' }],
        ['NOT_CONFIGURED:SEEDREAM_API_KEY is not set', 'failed', 'seedream', 'NOT_CONFIGURED', 'SEEDREAM_API_KEY is not set', 'NOT_CONFIGURED', { code: 'NOT_CONFIGURED', message: 'SEEDREAM_API_KEY is not set' }],
        ['FACE_EDIT_FAILED: no face', 'failed', 'face_edit', 'FACE_EDIT_FAILED', 'no face', 'JOB_FAILED', { code: 'FACE_EDIT_FAILED', message: 'no face' }],
        ['JOB_TIMEOUT', 'failed', 'seedream', 'JOB_TIMEOUT', 'JOB_TIMEOUT', 'JOB_FAILED', { code: 'InternalServiceError', message: 'JOB_TIMEOUT' }],
        ['the worker lost its heartbeat', 'failed', 'seedream', 'JOB_LOST', 'the worker lost its heartbeat', 'JOB_FAILED', { code: 'InternalServiceError', message: 'the worker lost its heartbeat' }],
        ['Error: socket hang up', 'failed', 'seedream', 'JOB_FAILED', 'Error: socket hang up', 'JOB_FAILED', { code: 'GenerationFailed', message: 'Error: socket hang up' }],
        ['engine crashed', 'failed', 'upscale', 'JOB_FAILED', 'engine crashed', 'JOB_FAILED', { code: 'GenerationFailed', message: 'engine crashed' }],
        [null, 'failed', 'upscale', 'JOB_FAILED', null, 'JOB_FAILED', { code: 'GenerationFailed', message: '' }],
        // The reaper's rows: image edit used to answer the code `recovered` (its heartbeat rule never
        // ran); they are JOB_LOST now, which image edit answers as the temporary service error.
        ['recovered: worker stopped (no heartbeat)', 'failed', 'seedream', 'JOB_LOST', 'worker stopped (no heartbeat)', 'JOB_FAILED', { code: 'InternalServiceError', message: 'worker stopped (no heartbeat)' }],
        [null, 'completed', 'upscale', null, null, null, null],
        [null, 'processing', 'upscale', null, null, null, null],
      ];
      const ids: number[] = [];
      for (const [i, [error, status, source]] of cases.entries()) {
        const [row] = await db.query(
          `insert into images (user_id, source, status, job_id, job_name, input, cost, spend_key, error, attempts)
           values ($1, $2, $3, $4, 'upscale', '{}', 15, $5, $6, 2) returning id`,
          [user!.id, source, status, `job-${i}`, `spend-${i}`, error],
        );
        ids.push(Number(row!.id));
      }

      await db.migrate(MIGRATIONS_DIR);

      const rows = await db.query(`select id, status, error_code, error, actor_kind, api_key_id, batch_id from jobs order by id`);
      expect(rows.map((r) => Number(r.id))).toEqual(ids);
      for (const [i, [, status, , code, detail, statusError, editError]] of cases.entries()) {
        const r = rows[i]!;
        expect({ status: r.status, error_code: r.error_code, error: r.error }, `case ${i}`).toEqual({ status, error_code: code, error: detail });
        expect(r).toMatchObject({ actor_kind: 'user', api_key_id: null, batch_id: null });
        const row = { status: status as JobRow['status'], errorCode: code as JobRow['errorCode'], error: detail };
        expect(status === 'failed' ? statusErrorOf(row) : null, `status answer of case ${i}`).toBe(statusError);
        expect(errorOfRow(row), `image edit answer of case ${i}`).toEqual(editError);
      }
      // The id sequence went along with the table: the next job gets the next id.
      const [next] = await db.query(
        `insert into jobs (user_id, source, status, job_id, job_name, input, cost, spend_key) values ($1, 'upscale', 'processing', 'job-next', 'upscale', '{}', 0, 'spend-next') returning id`,
        [user!.id],
      );
      expect(Number(next!.id)).toBe(ids.at(-1)! + 1);
      // The new rules hold: a failed job without a code, an unknown source or an API-key actor without its key are refused.
      await expect(db.query(`update jobs set status = 'failed' where id = $1`, [Number(next!.id)])).rejects.toThrow(/jobs_error_code_when_failed/);
      await expect(db.query(`update jobs set source = 'photoshop' where id = $1`, [Number(next!.id)])).rejects.toThrow(/jobs_source_valid/);
      await expect(db.query(`update jobs set actor_kind = 'api_key' where id = $1`, [Number(next!.id)])).rejects.toThrow(/jobs_api_key_actor/);
    } finally {
      await db.close();
    }
  });
});
