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

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '.artifacts/**',
      // Deliberately offending files, linted only by apps/web/src/lint-rules.test.ts.
      'apps/web/test/lint-fixtures/**',
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
