import { defineConfig } from 'vite';

/**
 * JSX is compiled by Vite's esbuild with the automatic runtime. @vitejs/plugin-react is not used: in
 * this workspace it resolves the root's newer vite (rolldown) and breaks the vite 7 dev server with
 * "Missing field moduleType"; the cost is no React fast refresh in development (full reloads instead).
 * The dev server proxies the API to the local server (spec 000 §7: a local API on port 5000).
 */
export default defineConfig({
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
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      // Libraries carry React Server Components' "use client" directive, meaningless in a SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
