/**
 * Proves that `npm run lint` enforces the server's module boundaries (eslint.config.js, decision 039):
 * each restricted-path zone and the no-cycle rule are run through ESLint's Node API on a tiny offending
 * snippet (a virtual file importing real modules) or fixture, with the repository's own config, and must
 * report; the imports the design allows must pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the flat config is plain JavaScript without type declarations
import { serverModuleZones } from '../../../eslint.config.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MODULES = path.join(ROOT, 'apps/server/src/modules');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, ignore: false });
});

/** What ESLint reports for `code` as if it were the file at `file` (repository-relative): `ruleId: message`. */
async function reports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const ZONE = 'import-x/no-restricted-paths';
/** The report of a zone whose message contains `words`. */
const zone = (words: string) => expect.stringMatching(new RegExp(`^${ZONE}: .*${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

describe('server module boundaries (npm run lint, decision 039)', () => {
  it('every module has a public face (index.ts), and the zones cover every module on disk', () => {
    const modules = fs.readdirSync(MODULES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(modules.length).toBeGreaterThan(10);
    for (const m of modules) expect(fs.existsSync(path.join(MODULES, m, 'index.ts')), `modules/${m}/index.ts`).toBe(true);
    const targets = (serverModuleZones() as { target: string | string[] }[]).flatMap((z) => [z.target].flat());
    for (const m of modules) expect(targets).toContain(`./apps/server/src/modules/${m}`);
  });

  it("a module importing another module's internal file fails; through the index it passes", async () => {
    expect(await reports('apps/server/src/modules/billing/probe.ts', "export { creditsRoutes } from '../credits/credits.routes';\n")).toEqual([zone('only through its index.ts')]);
    expect(await reports('apps/server/src/modules/account/probe.ts', "export { hashPassword } from '../auth/password';\n")).toEqual([zone('only through its index.ts')]);
    expect(await reports('apps/server/src/modules/billing/probe.ts', "export { creditsRoutes } from '../credits';\nexport { grant } from '../credits/index';\n")).toEqual([]);
  });

  it("a module's own files and the tests beside them use its internals", async () => {
    expect(await reports('apps/server/src/modules/billing/probe.ts', "export { cancelSubscription } from './billing.service';\nexport { createStripeProvider } from './providers/stripe.provider';\n")).toEqual([]);
    expect(await reports('apps/server/src/modules/auth/probe.test.ts', "export { hashPassword } from './password';\nexport { grant } from '../credits';\n")).toEqual([]);
    // …but a test beside one module still reaches another only through its index.
    expect(await reports('apps/server/src/modules/auth/probe.test.ts', "export { grant } from '../credits/credits.service';\n")).toEqual([zone('only through its index.ts')]);
  });

  it("files outside the modules (routes.ts, housekeeping, providers' tests, test helpers) import a module only through its index", async () => {
    expect(await reports('apps/server/src/probe.ts', "export { authRoutes } from './modules/auth/auth.routes';\n")).toEqual([zone('Outside the modules')]);
    expect(await reports('apps/server/test/helpers/probe.ts', "export { operatorToken } from '../../src/modules/billing/sandbox.routes';\n")).toEqual([zone('Outside the modules')]);
    expect(await reports('apps/server/src/probe.ts', "export { authRoutes } from './modules/auth';\n")).toEqual([]);
    expect(await reports('apps/server/test/helpers/probe.ts', "export { operatorToken } from '../../src/modules/billing';\n")).toEqual([]);
  });

  it('the kernel (tool-jobs) importing a tool, auth or billing fails', async () => {
    expect(await reports('apps/server/src/modules/tool-jobs/probe.ts', "export { retouchTool } from '../retouch';\n")).toEqual([zone('sit below the tools')]);
    expect(await reports('apps/server/src/modules/tool-jobs/probe.ts', "export { currentUser } from '../auth';\n")).toEqual([zone('sit below the tools')]);
    expect(await reports('apps/server/src/modules/tool-jobs/probe.ts', "export { cancelSubscription } from '../billing';\n")).toEqual([zone('sit below the tools')]);
    // Its own tests too: they take a tool from the context, as the kernel does.
    expect(await reports('apps/server/src/modules/tool-jobs/probe.test.ts', "export { retouchTool } from '../retouch';\n")).toEqual([zone('sit below the tools')]);
  });

  it('the ledger (credits) importing auth, billing, a tool or the kernel fails', async () => {
    expect(await reports('apps/server/src/modules/credits/probe.ts', "export { SessionCache } from '../auth';\n")).toEqual([zone('sit below the tools')]);
    expect(await reports('apps/server/src/modules/credits/probe.ts', "export { billingRoutes } from '../billing';\n")).toEqual([zone('sit below the tools')]);
    expect(await reports('apps/server/src/modules/credits/probe.ts', "export { aiRoutes } from '../ai';\n")).toEqual([zone('sit below the tools')]);
    expect(await reports('apps/server/src/modules/credits/probe.ts', "export { createToolJob } from '../tool-jobs';\n")).toEqual([zone('below the kernel')]);
  });

  it('the kernel may use the ledger, the uploads and the settings; the ledger and the users may use lib', async () => {
    const ok = "export { spend } from '../credits';\nexport { getConfirmedUpload } from '../uploads';\nexport { assertNotInMaintenance } from '../settings';\n";
    expect(await reports('apps/server/src/modules/tool-jobs/probe.ts', ok)).toEqual([]);
    expect(await reports('apps/server/src/modules/credits/probe.ts', "export { announceUserChanged } from '../../lib/user-changes';\nexport { userOf } from '../../lib/request-user';\n")).toEqual([]);
  });

  it('a tool importing another tool fails', async () => {
    expect(await reports('apps/server/src/modules/image-edit/probe.ts', "export { faceEditTool } from '../face-edit';\n")).toEqual([zone('Tools do not import each other')]);
    expect(await reports('apps/server/src/modules/ai/probe.ts', "export { imageGenerationTool } from '../image-generation';\n")).toEqual([zone('Tools do not import each other')]);
    expect(await reports('apps/server/src/modules/image-edit/probe.ts', "export { maskHasPaint } from '../uploads';\nexport { defineTool } from '../tool-jobs';\n")).toEqual([]);
  });

  it('a provider (or lib, db, jobs) importing a module fails; their tests may use an index', async () => {
    expect(await reports('apps/server/src/providers/kling/probe.ts', "export { maskHasPaint } from '../../modules/uploads';\n")).toEqual([zone('never import them')]);
    expect(await reports('apps/server/src/lib/probe.ts', "export { SessionCache } from '../modules/auth';\n")).toEqual([zone('never import them')]);
    expect(await reports('apps/server/src/providers/kling/probe.ts', "export { sniffImageType } from '../../lib/image-type';\n")).toEqual([]);
    expect(await reports('apps/server/src/providers/engines/probe.test.ts', "export { getBalance } from '../../modules/credits';\n")).toEqual([]);
  });

  it('a module (or any file but the entry points and test/) importing the composition root bootstrap.ts fails', async () => {
    expect(await reports('apps/server/src/modules/auth/probe.ts', "export { loadSecret } from '../../bootstrap';\n")).toEqual([zone('composition root')]);
    expect(await reports('apps/server/src/modules/auth/probe.test.ts', "export { createContext } from '../../bootstrap';\n")).toEqual([zone('composition root')]);
    expect(await reports('apps/server/src/routes.ts', "export { loadSecret } from './bootstrap';\n")).toEqual([zone('composition root')]);
    expect(await reports('apps/server/src/billing-cli.ts', "export { loadSecret } from './bootstrap';\n")).toEqual([]);
    expect(await reports('apps/server/src/worker.ts', "export { createContext } from './bootstrap';\n")).toEqual([]);
    expect(await reports('apps/server/test/helpers/probe.ts', "export { createContext } from '../../src/bootstrap';\n")).toEqual([]);
  });

  it('module code importing the other composition files (routes.ts, tools.ts, app.ts, housekeeping.ts) fails', async () => {
    expect(await reports('apps/server/src/modules/retouch/probe.ts', "export { TOOLS } from '../../tools';\n")).toEqual([zone('never import them')]);
    expect(await reports('apps/server/src/modules/tool-jobs/probe.ts', "export { ROUTE_MODULES } from '../../routes';\n")).toEqual([zone('never import them')]);
    expect(await reports('apps/server/src/modules/tool-jobs/probe.test.ts', "export { startHousekeeping } from '../../housekeeping';\n")).toEqual([]);
  });

  it('an import cycle fails (fixture files), and so does a module cycle through the indexes', async () => {
    const results = await eslint.lintFiles([path.join(ROOT, 'apps/server/test/lint-fixtures/cycle-a.ts')]);
    expect(results[0]?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
    // The users module (below auth) importing auth: auth's files import '../users', whose index loads this file.
    const file = 'apps/server/src/modules/users/users.presenter.ts';
    const upward = `${fs.readFileSync(path.join(ROOT, file), 'utf8')}\nexport { authRoutes } from '../auth';\n`;
    expect((await reports(file, upward)).some((r) => r.startsWith('import-x/no-cycle:'))).toBe(true);
  });

  it('the resolver sees through to the real files (an unresolved import would make every rule silent)', async () => {
    // A deep import of a file that does not exist is not reported by the zone rule: proves the reports
    // above come from resolved paths, not from matching the import text.
    expect(await reports('apps/server/src/modules/billing/probe.ts', "export { X } from '../credits/does-not-exist';\n")).toEqual([]);
  });
});
