import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client';

/**
 * The two databases every service suite runs against: PGlite in memory and a fresh PostgreSQL
 * database (created per suite on TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test,
 * dropped afterwards). When PostgreSQL is unreachable the PostgreSQL half is skipped locally with a
 * warning, and fails under CI (CI=true), where .ci/run guarantees a server.
 */
export interface TestDatabaseKind {
  name: 'pglite' | 'postgres';
  open(): Promise<Database & { dispose(): Promise<void> }>;
}

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Creates an empty PostgreSQL database and returns its URL and a drop function. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `dewy_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

const pgOk = await postgresReachable();
if (!pgOk) {
  if (process.env.CI) throw new Error(`PostgreSQL at ${ADMIN_URL} is not reachable; .ci/run should have started it`);
  console.warn(`[tests] PostgreSQL at ${ADMIN_URL} unreachable: PostgreSQL suites are skipped locally`);
}

export const TEST_DATABASES: TestDatabaseKind[] = [
  {
    name: 'pglite',
    async open() {
      const db = await openDatabase({ kind: 'pglite', dir: ':memory:' });
      return Object.assign(db, { dispose: () => db.close() });
    },
  },
  ...(pgOk
    ? [
        {
          name: 'postgres' as const,
          async open() {
            const created = await createPostgresDatabase();
            const db = await openDatabase({ kind: 'postgres', url: created.url, poolMax: 20 });
            return Object.assign(db, {
              async dispose() {
                await db.close();
                await created.drop();
              },
            });
          },
        },
      ]
    : []),
];
