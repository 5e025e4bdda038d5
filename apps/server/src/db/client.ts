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
  /**
   * Subscribes to a PostgreSQL notification channel (`LISTEN`): on PostgreSQL through one dedicated
   * connection that reconnects after a drop; on PGlite through its in-process listener.
   * @returns a function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** `pg_notify(channel, payload)` (payload < 8000 bytes): delivered to every listener of any process. */
  notify(channel: string, payload: string): Promise<void>;
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
        async listen(channel, onPayload) {
          const stop = await client.listen(channel, onPayload);
          return async () => {
            if (!client.closed) await stop();
          };
        },
        async notify(channel, payload) {
          await client.query('select pg_notify($1, $2)', [channel, payload]);
        },
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
  const listeners = new Set<{ close(): Promise<void> }>();
  return {
    kind: 'postgres',
    db,
    executor: pgExecutor(pool),
    txExecutor: (tx) => pgExecutor(clientOf(tx) as pg.PoolClient),
    async listen(channel, onPayload) {
      const l = await pgListener(cfg.url, channel, onPayload);
      listeners.add(l);
      return async () => {
        listeners.delete(l);
        await l.close();
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.close()));
      await pool.end();
    },
  };
}

/**
 * One dedicated connection that LISTENs on `channel` (a pooled connection cannot: LISTEN belongs to a
 * session). After a connection error it reconnects with a growing delay (0.5 s … 10 s); notifications
 * sent while disconnected are lost, which the page's polling fallback covers.
 */
async function pgListener(url: string, channel: string, onPayload: (payload: string) => void): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | undefined;
  let delay = 500;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
    });
    c.on('error', () => {
      if (closed) return;
      c.end().catch(() => {});
      setTimeout(() => void reconnect(), delay).unref();
      delay = Math.min(delay * 2, 10_000);
    });
    await c.connect();
    await c.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    client = c;
    delay = 500;
  };
  const reconnect = async () => {
    if (closed) return;
    try {
      await connect();
    } catch {
      setTimeout(() => void reconnect(), delay).unref();
      delay = Math.min(delay * 2, 10_000);
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

/** The driver client behind a drizzle transaction (PGlite Transaction or pg PoolClient). */
function clientOf(tx: Tx): unknown {
  return (tx as unknown as { session: { client: unknown } }).session.client;
}
