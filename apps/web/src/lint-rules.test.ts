/**
 * Proves that `npm run lint` enforces the web app's layers (eslint.config.js): each restricted-path
 * zone and the no-cycle rule are run through ESLint's Node API on a tiny offending snippet (a virtual
 * file importing a real module) or fixture, with the repository's own config, and must report.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, ignore: false });
});

/** Rule ids ESLint reports for `code` as if it were the file at `file` (repository-relative). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const ZONE = 'import-x/no-restricted-paths';

describe('web layer rules (npm run lint)', () => {
  it('a feature importing another feature fails', async () => {
    expect(await ruleIds('apps/web/src/features/auth/probe.ts', "export { UpscalePage } from '../upscale/components/upscale-page';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/features/upscale/probe.ts', "export { LandingPage } from '../landing/components/landing-page';\n")).toContain(ZONE);
  });

  it('a feature importing its own modules, shared/, components/ and lib/ passes', async () => {
    const ok = [
      "export { UpscalePage } from './components/upscale-page';",
      "export { ComparisonSlider } from '../../components/ui/comparison-slider';",
      "export { api } from '../../lib/api-client';",
      "export { ResultStage } from '../../shared/tool-job';",
    ].join('\n');
    expect(await ruleIds('apps/web/src/features/upscale/probe.ts', `${ok}\n`)).toEqual([]);
  });

  it('shared/, components/ and lib/ importing features/ or app/ fail', async () => {
    expect(await ruleIds('apps/web/src/shared/tool-job/probe.ts', "export { DEFAULT_OPTIONS } from '../../features/upscale/lib/options';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/shared/tool-job/probe.ts', "export { router } from '../../app/router';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/components/ui/probe.ts', "export { LoginPage } from '../../features/auth/components/login-page';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/lib/probe.ts', "export { Layout } from '../app/layout';\n")).toContain(ZONE);
  });

  it('lower layers importing higher ones fail (lib → components/shared, components → shared, features → app)', async () => {
    expect(await ruleIds('apps/web/src/lib/probe.ts', "export { Icon } from '../components/ui/icons';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/lib/probe.ts', "export { ResultStage } from '../shared/tool-job';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/components/ui/probe.ts', "export { ResultStage } from '../../shared/tool-job';\n")).toContain(ZONE);
    expect(await ruleIds('apps/web/src/features/upscale/probe.ts', "export { Layout } from '../../app/layout';\n")).toContain(ZONE);
  });

  it('the shared layer may use components/ and lib/', async () => {
    expect(await ruleIds('apps/web/src/shared/tool-job/probe.ts', "export { Dialog } from '../../components/ui/dialog';\nexport { notify } from '../../lib/toast';\n")).toEqual([]);
  });

  it('the app layer may compose features', async () => {
    expect(await ruleIds('apps/web/src/app/probe.ts', "export { UpscalePage } from '../features/upscale/components/upscale-page';\n")).toEqual([]);
  });

  it('the router importing a page statically fails; the lazyPage import() passes (decision 025)', async () => {
    expect(await ruleIds('apps/web/src/app/router.tsx', "export { LandingPage } from '../features/landing/components/landing-page';\n")).toContain('no-restricted-imports');
    expect(await ruleIds('apps/web/src/app/router.tsx', "import { NotFoundPage } from './coming-soon-page';\nexport const x = NotFoundPage;\n")).toContain('no-restricted-imports');
    const lazy = "import { lazyPage } from '../lib/lazy-page';\nexport const P = lazyPage(() => import('../features/landing/components/landing-page').then((m) => ({ default: m.LandingPage })));\n";
    expect(await ruleIds('apps/web/src/app/router.tsx', lazy)).toEqual([]);
  });

  it('an import cycle fails', async () => {
    const results = await eslint.lintFiles([path.join(ROOT, 'apps/web/test/lint-fixtures/cycle-a.ts')]);
    expect(results[0]?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  it('the resolver sees through to the real files (an unresolved import would make every rule silent)', async () => {
    // A feature importing a module that does not exist is not reported by the zone rule: proves the
    // reports above come from resolved paths, not from matching the import text.
    expect(await ruleIds('apps/web/src/features/auth/probe.ts', "export { X } from '../upscale/does-not-exist';\n")).toEqual([]);
  });
});
