import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR, openDatabase } from '../../src/db/client';

/**
 * Once-per-run migrated databases that every suite copies instead of migrating its own (decision 033).
 * Built by the Vitest globalSetup (apps/server/test/global-setup.ts) from the migrations that exist at run time and
 * handed to the test workers through `provide('dewyDbTemplates')`; `TEST_DATABASES` falls back to a
 * fresh migrated database when they are missing.
 */
export interface DbTemplates {
  /** A `PGlite.dumpDataDir('none')` tarball of a migrated in-memory cluster, or null. */
  pgliteDump: string | null;
  /** The name of a migrated PostgreSQL database to `CREATE DATABASE … TEMPLATE`, or null. */
  postgresTemplate: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dewyDbTemplates: DbTemplates;
  }
}

/** The PostgreSQL server the tests use (trust auth on the dev machines; .ci/run sets it under CI). */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL answers on `url` within 2 s. */
export async function postgresReachable(url = ADMIN_URL): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
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

/**
 * PGlite's shared buffers in the test template. Its default, 128 MB, is allocated and cleared by every
 * instance at start: half of the 1.3 s (1.7 s of CPU) each suite's database took to open from the
 * template, hundreds of times per run. 16 MB opens in 0.7 s and holds a test's data many times over
 * (issue 22; measured on the 2-core machine).
 */
export const PGLITE_TEST_SHARED_BUFFERS = '16MB';

/** Migrates a new in-memory PGlite and writes its data folder as a tarball to `file`. */
export async function buildPgliteTemplate(file: string): Promise<void> {
  const client = new PGlite();
  try {
    await client.waitReady;
    await migrate(drizzle(client) as never, { migrationsFolder: MIGRATIONS_DIR });
    // postgresql.auto.conf of the copies: read when each of them starts.
    await client.exec(`ALTER SYSTEM SET shared_buffers = '${PGLITE_TEST_SHARED_BUFFERS}'`);
    await client.exec('CHECKPOINT');
    const dump = await client.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/**
 * Creates and migrates a PostgreSQL database on `adminUrl` to serve as a template; nothing may stay
 * connected to it (CREATE DATABASE … TEMPLATE refuses a template in use). @returns its name and a drop.
 */
export async function buildPostgresTemplate(adminUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `dewy_tpl_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  };
  try {
    const db = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 1 });
    await db.close();
  } catch (err) {
    await drop().catch(() => {});
    throw err;
  }
  return { name, drop };
}

/** A fresh temporary file path for the PGlite tarball of this run. */
export function templateFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-tpl-')), 'pglite.tar');
}
