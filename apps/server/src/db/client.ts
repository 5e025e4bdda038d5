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
   * `opts.onState(false)` is called when the PostgreSQL connection drops (notifications may be lost
   * from then on) and `onState(true)` once it listens again; PGlite never drops.
   * @returns a function that stops listening; on PostgreSQL it carries `sync()` (see StopListening).
   */
  listen(channel: string, onPayload: (payload: string) => void, opts?: ListenOptions): Promise<StopListening>;
  /** `pg_notify(channel, payload)` (payload < 8000 bytes): delivered to every listener of any process. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** Options of `Database.listen`. */
export interface ListenOptions {
  /** Told when the listening connection drops (false) and when it listens again (true). */
  onState?: (up: boolean) => void;
  /** PostgreSQL `application_name` of the LISTEN connection, so `peers()` can count the other processes' ones. */
  applicationName?: string;
}

/**
 * What `Database.listen` returns: call it to stop listening. On PostgreSQL it also has `sync()`, one
 * round trip on the LISTEN connection: PostgreSQL sends a listening session its pending notifications
 * before it answers the session's next command, so when `sync()` resolves, every notification of a
 * transaction that had committed when `sync()` was called has been handed to `onPayload`. It rejects
 * while the connection is down. PGlite needs none: it delivers during the committing statement.
 */
export type StopListening = (() => Promise<void>) & {
  sync?: () => Promise<void>;
  /** PostgreSQL: how many OTHER connections to this database carry the same `applicationName`. */
  peers?: () => Promise<number>;
};

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
 *   gives a throw-away in-memory database (tests). `loadDataDir` (in-memory only) starts it from a
 *   `PGlite.dumpDataDir()` tarball instead of an empty cluster: the tests' once-per-run migrated copy
 *   (decision 033); the migrations still run and find nothing left to do.
 * - `{kind:'postgres', url}`: node-postgres pool.
 * @throws Error when the PGlite folder is owned by another live process.
 */
export async function openDatabase(cfg: { kind: 'pglite'; dir: string; loadDataDir?: Blob } | { kind: 'postgres'; url: string; poolMax?: number }): Promise<Database> {
  if (cfg.kind === 'pglite') {
    const memory = cfg.dir === ':memory:';
    let release = () => {};
    if (!memory) {
      release = acquireDataDirLock(cfg.dir);
      fs.mkdirSync(cfg.dir, { recursive: true });
    }
    try {
      const client = memory ? new PGlite(cfg.loadDataDir ? { loadDataDir: cfg.loadDataDir } : {}) : new PGlite(cfg.dir);
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
    async listen(channel, onPayload, opts) {
      const l = await pgListener(cfg.url, channel, onPayload, opts?.onState, opts?.applicationName);
      listeners.add(l);
      const stop = async () => {
        listeners.delete(l);
        await l.close();
      };
      return Object.assign(stop, { sync: l.sync, peers: l.peers });
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
 * sent while disconnected are lost, which the page's polling fallback covers, and `onState` is told
 * (false at the drop, true once listening again) so a cache can distrust itself meanwhile. TCP
 * keep-alive is on, so a silently dead peer is noticed too.
 */
async function pgListener(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onState?: (up: boolean) => void,
  applicationName?: string,
): Promise<{ close(): Promise<void>; sync(): Promise<void>; peers(): Promise<number> }> {
  let closed = false;
  let client: pg.Client | undefined;
  let delay = 500;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, keepAlive: true, ...(applicationName ? { application_name: applicationName } : {}) });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
    });
    c.on('error', () => {
      if (closed || client !== c) return;
      client = undefined;
      onState?.(false);
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
      if (closed) await client?.end().catch(() => {});
      else onState?.(true);
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
    async sync() {
      const c = client;
      if (!c) throw new Error(`not listening on ${channel}`);
      await c.query('select 1');
    },
    async peers() {
      const c = client;
      if (!c || !applicationName) return 0;
      const r = await c.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()',
        [applicationName],
      );
      return r.rows[0]?.n ?? 0;
    },
  };
}

/** The driver client behind a drizzle transaction (PGlite Transaction or pg PoolClient). */
function clientOf(tx: Tx): unknown {
  return (tx as unknown as { session: { client: unknown } }).session.client;
}
