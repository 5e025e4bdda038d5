import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium against the production build: the real server (apps/server,
 * embedded PGlite in a fresh temporary data folder, local CPU engines with the ONNX models of
 * ../shared/models) serving the built web app on a free port.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PORT = Number(process.env.E2E_PORT ?? 5199);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-e2e-'));
const sharedModels = path.resolve(ROOT, '../shared/models');
export const E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './specs',
  // Creates the administrator (the first account, id 1) once the server is up, before any spec.
  globalSetup: './global-setup.ts',
  outputDir: path.join(ROOT, '.artifacts/e2e-results'),
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'ko-KR',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node --import tsx apps/server/src/api.ts',
    cwd: ROOT,
    url: `http://localhost:${PORT}/api/feature/flags`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${PORT}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      MODELS_DIR: process.env.MODELS_DIR ?? (fs.existsSync(sharedModels) ? sharedModels : path.join(ROOT, 'data/models')),
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      // every spec signs up from 127.0.0.1; the limits themselves are tested in apps/server
      SIGNUP_MAX_PER_IP: '1000',
      SIGNUP_MAX_PER_DOMAIN: '1000',
      // Hops from 127.0.0.1/::1 may name the client in X-Forwarded-For. Only a spec that sends the header
      // on purpose is affected (mypage.spec: a referred visitor must not share the sharer's address, or
      // the self-referral rule refuses the reward); every other request still counts as 127.0.0.1.
      TRUST_PROXY: 'loopback',
    },
  },
});
