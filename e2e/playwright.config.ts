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
/** The fake Kakao/Naver sign-in servers (social-auth.spec.ts); the API's KAKAO_* / NAVER_* point at them. */
export const FAKE_SOCIAL_PORT = Number(process.env.E2E_SOCIAL_PORT ?? PORT + 1000);
const FAKE_SOCIAL = `http://127.0.0.1:${FAKE_SOCIAL_PORT}`;
/** The fake Kling API (apps/server/test/fakes/fake-kling.server.ts) the image-generation spec runs against. */
const KLING_PORT = Number(process.env.E2E_KLING_PORT ?? PORT + 100);
const KLING = { accessKey: 'e2e-access-key', secretKey: 'e2e-secret-key-0123456789' };
// Set once by the runner and inherited by its workers (which load this file again), so the specs read
// the server's outbox (DATA_DIR/outbox, decision 020) in the same folder the server writes.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
/**
 * The second app server, with its own database and outbox, for the specs that change what every page of
 * a server shows (notices, the maintenance switch): they run beside the others instead of after them.
 */
const GLOBAL_PORT = Number(process.env.E2E_GLOBAL_PORT ?? PORT + 2000);
const globalDataDir = process.env.E2E_GLOBAL_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-e2e-global-'));
process.env.E2E_GLOBAL_DATA_DIR = globalDataDir;
/** The fake OpenAI-compatible server the prompt chat talks to (chat.spec.ts); started before the app. */
const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? PORT + 20_000);
const sharedModels = path.resolve(ROOT, '../shared/models');
/**
 * The browser: CHROMIUM_PATH when set, else Debian's chrome-headless-shell (package
 * chromium-headless-shell, the same Blink and Skia as Chromium without the full browser's compositor,
 * GPU process and UI; measured: issue 22), else Debian's Chromium.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const E2E_DATA_DIR = dataDir;
/** Every app server the specs run against: its origin and its DATA_DIR (global-setup creates the administrator on each). */
export const E2E_SERVERS = [
  { origin: `http://localhost:${PORT}`, dataDir },
  { origin: `http://localhost:${GLOBAL_PORT}`, dataDir: globalDataDir },
];
/** The fake ModelArk (Seedream) image API the image-edit spec runs against (issue 16). */
const SEEDREAM_PORT = Number(process.env.E2E_SEEDREAM_PORT ?? PORT + 1500);
const SEEDREAM_KEY = 'e2e-seedream-key';

/**
 * Specs that change what every page of their server shows (a published notice, the maintenance switch):
 * they run on the second server, one at a time.
 */
const GLOBAL_STATE_SPECS = ['**/notices.spec.ts'];
/**
 * Specs whose tests share a fake's state (social-auth: the fake Kakao's "next user"), so their tests run
 * in order on one worker, beside everything else.
 */
const IN_ORDER_SPECS = ['**/social-auth.spec.ts'];

/**
 * A fake vendor server started before the app (Playwright's webServer list), on 127.0.0.1; `ready` is
 * the URL that answers once it listens, or just its port.
 */
function fakeServer(script: string, ready: string | number, env: Record<string, string>) {
  const wait = typeof ready === 'number' ? { port: ready } : { url: ready };
  return { command: `node --import tsx ${script}`, cwd: ROOT, ...wait, timeout: 60_000, reuseExistingServer: false, stdout: 'ignore' as const, stderr: 'pipe' as const, env };
}

export default defineConfig({
  testDir: './specs',
  // Creates the administrator (the first account, id 1) on each app server once they are up, before any spec.
  globalSetup: './global-setup.ts',
  outputDir: path.join(ROOT, '.artifacts/e2e-results'),
  // Deadlines, never margins (issue 22): a test waits for events (a row, a balance, a pushed message),
  // and these only bound how long it may wait on a machine that four CPU hogs keep busy; a broken
  // behaviour still fails, later.
  timeout: 420_000,
  expect: { timeout: 30_000 },
  // Every test signs up its own users, so the tests of all files run side by side on one server (those
  // of IN_ORDER_SPECS, which share a fake's state, in order). The specs that change what every page
  // shows (notices, maintenance) run at the same time on a second server with its own database, one at a
  // time; that project is listed first so that its chain starts at once (decision 033 and its addendum).
  // Three workers: a test mostly waits (on the server, the engine, the page's polls), so a third keeps
  // the two cores busier.
  fullyParallel: true,
  workers: 3,
  projects: [
    { name: 'global-state', testMatch: GLOBAL_STATE_SPECS, workers: 1, use: { baseURL: `http://localhost:${GLOBAL_PORT}` } },
    { name: 'in-order', testMatch: IN_ORDER_SPECS, fullyParallel: false },
    { name: 'independent', testIgnore: [...GLOBAL_STATE_SPECS, ...IN_ORDER_SPECS] },
  ],
  // A test that needs a retry is a defect to fix: flakiness is reported, not hidden, in CI too (decision 033).
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'ko-KR',
    // As a visitor who asks for less motion: no looping shimmer or spinner repaints the page 60 times a
    // second in every open tab (software rendering on two cores); no assertion depends on motion.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
    // A failed test keeps its final screenshot and its page's accessibility snapshot (error-context.md).
    // Traces are recorded only when asked for (E2E_TRACE=1: actions, DOM snapshots, network, console;
    // kept for failed tests): recording them for every test — DOM snapshots at each action, screencast
    // frames — took a third or more of the two cores, to be thrown away when the test passed (issue 22).
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: true, snapshots: true, sources: true } : 'off',
    screenshot: 'only-on-failure',
  },
  // The fake vendors first (each spec that needs one runs against it), then the app.
  webServer: [
    fakeServer(
      // Kakao and Naver sign-in go through it (Google stays unconfigured).
      'apps/server/test/fakes/fake-social.cli.ts',
      `${FAKE_SOCIAL}/oauth2/v3/certs`,
      { FAKE_SOCIAL_PORT: String(FAKE_SOCIAL_PORT), FAKE_KAKAO_CLIENT_ID: 'e2e-kakao', FAKE_KAKAO_CLIENT_SECRET: 'e2e-kakao-secret', FAKE_NAVER_CLIENT_ID: 'e2e-naver', FAKE_NAVER_CLIENT_SECRET: 'e2e-naver-secret' },
    ),
    fakeServer(
      'apps/server/test/fakes/fake-kling.main.ts',
      `http://127.0.0.1:${KLING_PORT}/v1/images/generations/ready`,
      { FAKE_KLING_PORT: String(KLING_PORT), FAKE_KLING_ACCESS_KEY: KLING.accessKey, FAKE_KLING_SECRET_KEY: KLING.secretKey },
    ),
    fakeServer(
      'apps/server/test/fakes/fake-seedream.main.ts',
      SEEDREAM_PORT,
      { FAKE_SEEDREAM_PORT: String(SEEDREAM_PORT), FAKE_SEEDREAM_KEY: SEEDREAM_KEY },
    ),
    fakeServer('apps/server/test/fakes/fake-openai.server.ts', `http://127.0.0.1:${LLM_PORT}/health`, { FAKE_OPENAI_PORT: String(LLM_PORT), FAKE_OPENAI_CHUNK_MS: '150' }),
    appServer(PORT, dataDir),
    appServer(GLOBAL_PORT, globalDataDir),
  ],
});

/** The real server (apps/server) on `port` with its own DATA_DIR (embedded PGlite, outbox, files). */
function appServer(port: number, dir: string) {
  return {
    command: 'node --import tsx apps/server/src/api.ts',
    cwd: ROOT,
    url: `http://localhost:${port}/api/feature/flags`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // The specs buy through the sandbox's test checkout, on purpose (decision 028).
      PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
      MODELS_DIR: process.env.MODELS_DIR ?? (fs.existsSync(sharedModels) ? sharedModels : path.join(ROOT, 'data/models')),
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      // every spec signs up from 127.0.0.1; the limits themselves are tested in apps/server
      SIGNUP_MAX_PER_IP: '1000',
      SIGNUP_MAX_PER_DOMAIN: '1000',
      // Hops from 127.0.0.1/::1 may name the client in X-Forwarded-For. Only a spec that sends the header
      // on purpose is affected (mypage.spec: a referred visitor must not share the sharer's address, or
      // the self-referral rule refuses the reward); every other request still counts as 127.0.0.1.
      TRUST_PROXY: 'loopback',
      KAKAO_CLIENT_ID: 'e2e-kakao',
      KAKAO_CLIENT_SECRET: 'e2e-kakao-secret',
      KAKAO_BASE_URL: FAKE_SOCIAL,
      KAKAO_API_BASE_URL: FAKE_SOCIAL,
      NAVER_CLIENT_ID: 'e2e-naver',
      NAVER_CLIENT_SECRET: 'e2e-naver-secret',
      NAVER_BASE_URL: FAKE_SOCIAL,
      NAVER_API_BASE_URL: FAKE_SOCIAL,
      KLING_ACCESS_KEY: KLING.accessKey,
      KLING_SECRET_KEY: KLING.secretKey,
      KLING_BASE_URL: `http://127.0.0.1:${KLING_PORT}`,
      KLING_POLL_INTERVAL_MS: '300',
      SEEDREAM_API_KEY: SEEDREAM_KEY,
      SEEDREAM_BASE_URL: `http://127.0.0.1:${SEEDREAM_PORT}`,
      SEEDREAM_RETRY_BASE_MS: '200',
      // The prompt chat's language model: the fake above (only chat.spec.ts uses it).
      LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
      LLM_MODEL: 'fake-model',
    },
  };
}
