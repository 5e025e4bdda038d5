import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig } from 'vite';

/**
 * JSX is compiled by Vite's esbuild with the automatic runtime. @vitejs/plugin-react is not used: in
 * this workspace it resolves the root's newer vite (rolldown) and breaks the vite 7 dev server with
 * "Missing field moduleType"; the cost is no React fast refresh in development (full reloads instead).
 * The dev server proxies the API to the local server (spec 000 §7: a local API on port 5000).
 * `vite build --mode analyze` (`npm run analyze`) also writes the bundle report (rollup-plugin-visualizer,
 * treemap with gzip sizes) and its raw data to .artifacts/ at the repository root (decision 025).
 */
export default defineConfig(({ mode }) => ({
  plugins:
    mode === 'analyze'
      ? [
          visualizer({ filename: '../../.artifacts/bundle-report.html', template: 'treemap', gzipSize: true }),
          visualizer({ filename: '../../.artifacts/bundle-report.json', template: 'raw-data', gzipSize: true }),
        ]
      : [],
  esbuild: { jsx: 'automatic' },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:5000', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://localhost:5000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // dist/.vite/manifest.json (not served: a dot folder): the bundle budget test reads the chunk graph
    // of the build `npm test` just made instead of building a second time (issue 22).
    manifest: true,
    chunkSizeWarningLimit: 900,
    // Fonts stay files: a data: URL would be refused by the CSP (font-src 'self') and would put every
    // unicode-range slice into the CSS that the landing page downloads (decision 025).
    assetsInlineLimit: (file) => (file.endsWith('.woff2') ? false : undefined),
    rollupOptions: {
      // Libraries carry React Server Components' "use client" directive, meaningless in a SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
}));
