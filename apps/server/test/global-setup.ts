import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ADMIN_URL, buildPgliteTemplate, buildPostgresTemplate, postgresReachable, templateFile } from './helpers/db-templates';

/**
 * Vitest globalSetup: migrates one PGlite cluster and one PostgreSQL database per run, before any
 * worker starts, and provides them as templates to every suite (decision 033). A template that cannot
 * be built is left out (null) and suites migrate their own database as before.
 */
export default async function setup(project: TestProject) {
  const file = templateFile();
  const [pglite, postgres] = await Promise.all([
    buildPgliteTemplate(file).then(
      () => file,
      (err: unknown) => {
        console.warn('[tests] no PGlite template, suites migrate their own:', err);
        return null;
      },
    ),
    postgresReachable().then((ok) =>
      ok
        ? buildPostgresTemplate(ADMIN_URL).catch((err: unknown) => {
            console.warn('[tests] no PostgreSQL template, suites migrate their own:', err);
            return null;
          })
        : null,
    ),
  ]);
  project.provide('dewyDbTemplates', { pgliteDump: pglite, postgresTemplate: postgres?.name ?? null });
  return async () => {
    await postgres?.drop().catch(() => {});
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  };
}
