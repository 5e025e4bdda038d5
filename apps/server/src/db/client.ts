import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { acquireDataDirLock } from './lock';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run a query: the database or an open transaction. */
export type DbOrTx = Db | Tx;

/** Raw SQL executor in pg-boss's `db` adapter shape (`$1` placeholders, `{rows}` back). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Executes raw SQL outside any transaction (pg-boss uses this). */
  executor: SqlExecutor;
  /** An executor bound to an open transaction, so a job can be enqueued inside it. */
  txExecutor(tx: Tx): SqlExecutor;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

type PgliteLike = { query: PGlite['query']; exec: PGlite['exec'] };

function pgliteExecutor(client: PgliteLike): SqlExecutor {
  return {
    async executeSql(text, values) {
      // PGlite's extended protocol takes one statement; pg-boss sends multi-statement DDL without params.
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const r = await client.query(text, values);
      return { rows: r.rows };
    },
  };
}

function pgExecutor(client: { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> }): SqlExecutor {
  return { executeSql: (text, values) => client.query(text, values) };
}

/**
 * Opens the database named by the config and runs the migrations.
 * - `{kind:'pglite', dir}`: embedded PostgreSQL (WASM) in `dir`, guarded by a lock file; `dir: ':memory:'`
 *   gives a throw-away in-memory database (tests).
 * - `{kind:'postgres', url}`: node-postgres pool.
 * @throws Error when the PGlite folder is owned by another live process.
 */
export async function openDatabase(cfg: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string; poolMax?: number }): Promise<Database> {
  if (cfg.kind === 'pglite') {
    const memory = cfg.dir === ':memory:';
    let release = () => {};
    if (!memory) {
      release = acquireDataDirLock(cfg.dir);
      fs.mkdirSync(cfg.dir, { recursive: true });
    }
    try {
      const client = memory ? new PGlite() : new PGlite(cfg.dir);
      await client.waitReady;
      const db = drizzlePglite(client, { schema }) as unknown as Db;
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
      return {
        kind: 'pglite',
        db,
        executor: pgliteExecutor(client),
        txExecutor: (tx) => pgliteExecutor(clientOf(tx) as PgliteLike),
        async close() {
          await client.close();
          release();
        },
      };
    } catch (err) {
      release();
      throw err;
    }
  }
  const pool = new pg.Pool({ connectionString: cfg.url, max: cfg.poolMax ?? 10 });
  pool.on('error', () => {}); // idle client errors surface on the next query instead of crashing
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  try {
    await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
  } catch (err) {
    await pool.end();
    throw err;
  }
  return {
    kind: 'postgres',
    db,
    executor: pgExecutor(pool),
    txExecutor: (tx) => pgExecutor(clientOf(tx) as pg.PoolClient),
    close: () => pool.end(),
  };
}

/** The driver client behind a drizzle transaction (PGlite Transaction or pg PoolClient). */
function clientOf(tx: Tx): unknown {
  return (tx as unknown as { session: { client: unknown } }).session.client;
}
