// Flat config: typescript-eslint recommended rules across every workspace; zero warnings allowed.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const ROOT = import.meta.dirname;
const WEB_SRC = 'apps/web/src';

/**
 * The web app's layers (GUIDE §2, bulletproof-react), enforced by `import-x/no-restricted-paths`:
 * - a feature never imports another feature (one zone per folder under features/, read from disk, so a
 *   new feature is covered without touching this file);
 * - shared/ (the tool layer every feature uses), components/ and lib/ never import features/ or app/;
 * - components/ and lib/ never import shared/, and lib/ never imports components/ (lower layers stay
 *   below: app → features → shared → components → lib);
 * - features never import app/ (the app layer composes them, not the other way round).
 * Exported for apps/web/src/lint-rules.test.ts, which proves each zone and the cycle rule fire.
 */
export function webLayerZones(src = WEB_SRC) {
  const at = (p) => `./${path.posix.join(src, p)}`;
  const featuresDir = path.join(ROOT, src, 'features');
  const features = fs.existsSync(featuresDir)
    ? fs.readdirSync(featuresDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
    : [];
  return [
    ...features.map((f) => ({
      target: at(`features/${f}`),
      from: at('features'),
      except: [`./${f}`],
      message: 'Features do not import each other: move what both need to shared/ (or compose them in app/).',
    })),
    {
      target: [at('shared'), at('components'), at('lib')],
      from: [at('features'), at('app')],
      message: 'shared/, components/ and lib/ sit below the features and the app: pass what they need in as props or arguments.',
    },
    { target: [at('components'), at('lib')], from: at('shared'), message: 'components/ and lib/ sit below shared/.' },
    { target: at('lib'), from: at('components'), message: 'lib/ sits below components/.' },
    { target: at('features'), from: at('app'), message: 'The app layer composes features; features do not import it.' },
  ];
}

const SERVER_SRC = 'apps/server/src';

/** The paid tools of the server (modules on top of the kernel): they never import each other. */
export const SERVER_TOOL_MODULES = ['retouch', 'face-edit', 'image-edit', 'image-generation', 'ai'];

/**
 * The server's module boundaries (decision 039), enforced by `import-x/no-restricted-paths`:
 * - a module imports another module only through its public face, `modules/<m>/index.ts` (`'../<m>'`):
 *   never another module's internal file; files outside the modules (src/*.ts, providers, lib, db,
 *   jobs, test/, bench/) likewise. A module's own files, and the tests beside them, use its internals;
 * - layering: the kernel (modules/tool-jobs) and the ledger (modules/credits) sit below the tools, auth,
 *   account, billing and affiliate, and the ledger below the kernel; the tools never import each other;
 * - the base (providers, lib, db, jobs) never imports a module (their tests may, through the index);
 * - nothing but the entry points (api.ts, worker.ts, billing-cli.ts) and test/ imports the composition
 *   root bootstrap.ts: the secret and the services come on the context; a module's code never imports
 *   the other composition files (routes.ts, tools.ts, app.ts, housekeeping.ts) or the entry points.
 * The module list is read from disk, so a new module is covered without touching this file. Exported
 * for apps/server/src/lint-rules.test.ts, which proves each zone and the cycle rule fire.
 */
export function serverModuleZones(src = SERVER_SRC) {
  const at = (p) => `./${path.posix.join(src, p)}`;
  const modulesDir = path.join(ROOT, src, 'modules');
  const modules = fs.existsSync(modulesDir)
    ? fs.readdirSync(modulesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
    : [];
  const indexes = (except) => modules.filter((m) => m !== except).map((m) => `./${m}/index.ts`);
  const serverRoot = path.posix.dirname(src);
  const below = ['tool-jobs', 'credits'];
  const above = [...SERVER_TOOL_MODULES, 'auth', 'account', 'billing', 'affiliate'];
  return [
    ...modules.map((m) => ({
      target: at(`modules/${m}`),
      from: at('modules'),
      except: [`./${m}`, ...indexes(m)],
      message: `A module imports another only through its index.ts (decision 039): import from '../<module>', and export what you need there.`,
    })),
    {
      target: [at('*.ts'), at('providers'), at('lib'), at('db'), at('jobs'), `./${serverRoot}/test`, `./${serverRoot}/bench`],
      from: at('modules'),
      except: indexes(null),
      message: 'Outside the modules, import a module only through its index.ts (decision 039).',
    },
    {
      target: below.map((m) => at(`modules/${m}`)),
      from: above.map((m) => at(`modules/${m}`)),
      message: 'The kernel (tool-jobs) and the ledger (credits) sit below the tools, auth, account, billing and affiliate (decision 039): take what they need as an argument, a tool definition or a hook.',
    },
    { target: at('modules/credits'), from: at('modules/tool-jobs'), message: 'The ledger (credits) sits below the kernel (tool-jobs) (decision 039).' },
    ...SERVER_TOOL_MODULES.map((t) => ({
      target: at(`modules/${t}`),
      from: SERVER_TOOL_MODULES.filter((o) => o !== t).map((o) => at(`modules/${o}`)),
      message: 'Tools do not import each other (decision 039): move what both need to the kernel or a module below it (uploads, settings…).',
    })),
    {
      target: `./${src}/{providers,lib,db,jobs}/**/!(*.test).ts`,
      from: `./${src}/modules/**`,
      message: 'providers, lib, db and jobs sit below the modules and never import them (decision 039): move the shared code down, or pass it in.',
    },
    {
      target: `./${src}/modules/**/!(*.test).ts`,
      from: ['routes.ts', 'tools.ts', 'app.ts', 'housekeeping.ts', 'api.ts', 'worker.ts', 'billing-cli.ts'].map(at),
      message: 'Modules are composed by routes.ts, tools.ts, app.ts and housekeeping.ts and started by the entry points; they never import them (decision 039).',
    },
    {
      target: [`./${src}/!(api|worker|billing-cli|openapi).ts`, `./${src}/*/**`],
      from: at('bootstrap.ts'),
      message: 'Only the entry points (api.ts, worker.ts, billing-cli.ts, openapi.ts — the contract generator builds the whole app) and test/ import the composition root (decision 039): read ctx.secret and the services from the context; tests use test/helpers/test-app.',
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '.artifacts/**',
      // Deliberately offending files, linted only by apps/web/src/lint-rules.test.ts and apps/server/src/lint-rules.test.ts.
      'apps/web/test/lint-fixtures/**',
      'apps/server/test/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      // Which files import-x parses when it follows imports (no-cycle reads the whole graph).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/external-module-folders': ['node_modules'],
      // apps/web/tsconfig.json declares no path aliases today; reading it keeps the resolver right if one
      // is added. Workspace packages (@dewy/contracts) resolve through node_modules and their `exports`.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
          conditionNames: ['import', 'default'],
          tsconfig: { configFile: path.join(ROOT, 'apps/web/tsconfig.json') },
        }),
      ],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: webLayerZones() }],
      // No import cycles inside the web app (type-only imports count too: they still tie modules together).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The server's module boundaries (decision 039; serverModuleZones above).
    files: ['apps/server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/external-module-folders': ['node_modules'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.json'],
          conditionNames: ['import', 'default'],
          tsconfig: { configFile: path.join(ROOT, 'apps/server/tsconfig.json') },
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: serverModuleZones() }],
    },
  },
  {
    // No import cycles in the server (type-only imports do not count: they vanish at run time). Through
    // the modules' indexes a file cycle is a module cycle, so this keeps the module graph a DAG. Test
    // files stay in: leaving them out saved no measurable time (decision 039).
    files: ['apps/server/src/**/*.ts', 'apps/server/test/lint-fixtures/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Decision 025: every page is code-split. The router declares pages with lazyPage(() => import(...));
    // a static import of a page module here would put it (and its libraries) into the first load.
    files: ['apps/web/src/app/router.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../features/**', './coming-soon-page'], message: 'Pages enter the router through lazyPage(() => import(...)) (decision 025: first-load budget).' },
          ],
        },
      ],
    },
  },
);
