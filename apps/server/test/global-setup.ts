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
  // One build per run: every Vitest project (vitest.config.ts) runs this setup, each in its own module
  // instance but in the same process, so the first one's build is kept on globalThis for the others.
  const shared = globalThis as { dewyDbTemplatesBuild?: ReturnType<typeof buildTemplates> };
  shared.dewyDbTemplatesBuild ??= buildTemplates();
  const { file, pglite, postgres } = await shared.dewyDbTemplatesBuild;
  project.provide('dewyDbTemplates', { pgliteDump: pglite, postgresTemplate: postgres?.name ?? null });
  // Teardowns run once every project's tests have ended; the first one removes the templates.
  return async () => {
    if (!shared.dewyDbTemplatesBuild) return;
    shared.dewyDbTemplatesBuild = undefined;
    await postgres?.drop().catch(() => {});
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  };
}

/** Builds both templates (either null when it cannot be built). */
async function buildTemplates() {
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
  return { file, pglite, postgres };
}
