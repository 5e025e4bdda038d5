import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { ADMIN_URL, postgresReachable, type DbTemplates } from './db-templates';

/**
 * The two databases every service suite runs against: PGlite in memory and a fresh PostgreSQL
 * database (created per suite on TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test,
 * dropped afterwards). Both start from the run's migrated template when the Vitest globalSetup built
 * one (a copy of the PGlite data folder, `CREATE DATABASE … TEMPLATE` on PostgreSQL; decision 033), else
 * from scratch; either way the migrator runs at open. When PostgreSQL is unreachable the PostgreSQL half is skipped locally with a
 * warning, and fails under CI (CI=true), where .ci/run guarantees a server.
 */
export interface TestDatabaseKind {
  name: 'pglite' | 'postgres';
  open(): Promise<Database & { dispose(): Promise<void> }>;
}

export { ADMIN_URL };

/** The run's templates, or none (a helper used outside a Vitest run with the globalSetup). */
function templates(): DbTemplates {
  try {
    return inject('dewyDbTemplates') ?? { pgliteDump: null, postgresTemplate: null };
  } catch {
    return { pgliteDump: null, postgresTemplate: null };
  }
}

/**
 * A tarball PGlite can start from (`loadDataDir`), held in memory. PGlite reads its data folder with
 * `blob.arrayBuffer()`, which Node's Blob assembles from 64 KiB chunks (0.25 s of CPU for the 42 MB
 * template, each time a suite opens a database); this one hands out a copy of the bytes at once (each
 * instance gets its own: PGlite may keep views of them).
 */
class TarballBlob extends Blob {
  readonly #tar: Uint8Array;
  constructor(tar: Uint8Array) {
    super([]);
    this.#tar = tar;
    Object.defineProperty(this, 'size', { value: tar.byteLength });
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#tar.slice().buffer);
  }
}

/** The PGlite tarball of this run, read once per worker; undefined when there is none. */
let pgliteDump: Promise<Blob | undefined> | undefined;
function pgliteTemplate(): Promise<Blob | undefined> {
  pgliteDump ??= (async () => {
    const file = templates().pgliteDump;
    if (!file) return undefined;
    try {
      return new TarballBlob(await fs.promises.readFile(file));
    } catch {
      return undefined; // removed or never written: migrate from scratch
    }
  })();
  return pgliteDump;
}

/**
 * A PGlite data folder at `dir` holding the run's migrated template (so a child process that opens
 * it — `npm run worker`, a crash worker — finds every migration applied instead of running them all);
 * left empty (migrated at open) when the run has no template.
 */
export async function seedPgliteDataDir(dir: string): Promise<void> {
  const dump = await pgliteTemplate();
  if (!dump) return;
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = new PGlite(dir, { loadDataDir: dump });
  await pg.waitReady;
  await pg.close();
}

/** A PostgreSQL database copied from the run's migrated template (empty, migrated at open, without one). */
export function createMigratedPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createPostgresDatabaseFrom(templates().postgresTemplate);
}

/** Creates a PostgreSQL database copied from `template` (already migrated); as `createPostgresDatabase`. */
async function createPostgresDatabaseFrom(template: string | null): Promise<{ url: string; drop(): Promise<void> }> {
  if (!template) return createPostgresDatabase();
  const name = `dewy_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } catch {
    return createPostgresDatabase(); // template gone (or in use): an empty database, migrated at open
  } finally {
    await admin.end();
  }
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
      const db = await openDatabase({ kind: 'pglite', dir: ':memory:', loadDataDir: await pgliteTemplate() });
      return Object.assign(db, { dispose: () => db.close() });
    },
  },
  ...(pgOk
    ? [
        {
          name: 'postgres' as const,
          async open() {
            const created = await createPostgresDatabaseFrom(templates().postgresTemplate);
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
