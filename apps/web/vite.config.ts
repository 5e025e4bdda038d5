import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

// plugin-react's types resolve against the root workspace's newer vite; at runtime it supports vite 7.
const reactPlugin = react() as unknown as PluginOption;

// The dev server proxies the API to the local server (spec 000 §7: a local API on port 5000).
export default defineConfig({
  plugins: [reactPlugin],
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
  },
});
