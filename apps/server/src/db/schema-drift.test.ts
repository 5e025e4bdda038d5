import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './client';

/**
 * The schema guard (issue 23 point 6, decision 034): `npm run db:generate -w @dewy/server` on a clean
 * checkout must find nothing to do, i.e. the latest snapshot in `migrations/meta` describes the drizzle
 * schema exactly. It runs the real `drizzle-kit generate` (the command `db:generate` runs) over a
 * temporary copy of the migrations folder, never over the repository's.
 *
 * When it fails: a schema change came without its migration, or a migration without its snapshot.
 * Write the migration, then refresh the latest snapshot as decision 034 describes.
 */
const require = createRequire(import.meta.url);
const DRIZZLE_KIT = path.join(path.dirname(require.resolve('drizzle-kit')), 'bin.cjs');
const SCHEMA = path.join(MIGRATIONS_DIR, '..', 'schema', 'index.ts');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir` (relative path → contents). */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, full), fs.readFileSync(full, 'utf8'));
  }
  return out;
}

/**
 * Runs `drizzle-kit generate` for `schemaFile` over a fresh copy of the migrations folder.
 * @returns the exit code, the output, the files it added or changed (relative paths) and the copy's path
 */
async function generate(schemaFile: string): Promise<{ code: number; output: string; changed: string[]; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-drift-'));
  temps.push(dir);
  const out = path.join(dir, 'migrations');
  fs.cpSync(MIGRATIONS_DIR, out, { recursive: true });
  const before = filesOf(out);
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    // cwd = the copy's parent and a relative --out: drizzle-kit joins `out` onto `./`.
    const child = execFile(
      process.execPath,
      [DRIZZLE_KIT, 'generate', '--dialect', 'postgresql', '--schema', schemaFile, '--out', './migrations'],
      { cwd: dir, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
    child.stdin?.end(); // no TTY: a rename question makes drizzle-kit fail instead of waiting
  });
  const after = filesOf(out);
  const changed = [...after.keys()].filter((f) => before.get(f) !== after.get(f));
  return { code, output, changed, out };
}

describe('schema guard: drizzle-kit generate finds nothing to do', () => {
  it('the latest snapshot describes the drizzle schema: no migration is generated', async () => {
    const r = await generate(SCHEMA);
    expect(r.changed, r.output).toEqual([]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/No schema changes/);
  });

  it('the guard sees a change: a schema with one more table makes generate write a migration', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-drift-probe-'));
    temps.push(dir);
    const probe = path.join(dir, 'probe-schema.ts');
    fs.writeFileSync(
      probe,
      [
        `export * from ${JSON.stringify(SCHEMA)};`,
        `import { integer, pgTable } from ${JSON.stringify(require.resolve('drizzle-orm/pg-core'))};`,
        `export const driftProbe = pgTable('drift_probe', { n: integer('n').notNull() });`,
        '',
      ].join('\n'),
    );
    const r = await generate(probe);
    expect(r.code, r.output).toBe(0);
    const sql = r.changed.filter((f) => f.endsWith('.sql'));
    expect(sql, r.output).toHaveLength(1);
    expect(r.changed).toEqual(expect.arrayContaining([path.join('meta', '_journal.json')]));
    const written = fs.readFileSync(path.join(r.out, sql[0]!), 'utf8');
    expect(written).toContain('CREATE TABLE "drift_probe"');
    expect(written).not.toMatch(/CREATE TABLE "(jobs|users|uploads)"/);
  });
});
