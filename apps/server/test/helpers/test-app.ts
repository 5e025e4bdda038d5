import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { closeContext, createContext, type ContextOverrides } from '../../src/bootstrap';
import { loadConfig } from '../../src/config';
import type { AppContext } from '../../src/context';
import { createFakeEngine, type FakeEngine } from '../fakes/fake-engine';
import { createFakeFaceEditEngine, type FakeFaceEditEngine } from '../fakes/fake-face-edit-engine';
import { createFakeModerator, type FakeModerator } from '../fakes/fake-moderator';
import type { TestDatabaseKind } from './databases';
import { latestLinkToken } from './outbox';

/** The outbox folder of each test app (signUpAndLogin verifies accounts through it). */
const outboxOf = new WeakMap<FastifyInstance, string>();

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  engine: FakeEngine;
  faceEditEngine: FakeFaceEditEngine;
  moderator: FakeModerator;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A full API on a test database with a fake engine and a temporary data folder (no web build, quiet
 * logs, no in-process workers unless `workers: true`). The retouch and face-edit capabilities of the
 * engine registry are fakes unless `configuredEngine`; `engines` replaces any capability (a fake
 * vendor; null = not configured), the rest come from `env`.
 */
export async function createTestApp(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  opts: { workers?: boolean; configuredEngine?: boolean } & Pick<ContextOverrides, 'tools' | 'jobSchemas' | 'payments' | 'mail' | 'engines'> = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-test-'));
  // Suites sign many accounts up from one inject address; the sign-up limits get their own suite.
  const generousSignup = { SIGNUP_MAX_PER_IP: '100000', SIGNUP_MAX_PER_DOMAIN: '100000' };
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), LOG_LEVEL: 'silent', ...generousSignup, ...env });
  const database = await kind.open();
  const engine = createFakeEngine();
  const faceEditEngine = createFakeFaceEditEngine();
  const moderator = createFakeModerator();
  const fakes = opts.configuredEngine ? {} : { retouch: engine, 'face-edit': faceEditEngine };
  const ctx = await createContext(config, { engines: { ...fakes, ...opts.engines }, moderator: opts.configuredEngine ? undefined : moderator, database, tools: opts.tools, jobSchemas: opts.jobSchemas, payments: opts.payments, mail: opts.mail });
  const app = await buildApp(ctx, { logger: false });
  outboxOf.set(app, path.join(dataDir, 'outbox'));
  if (opts.workers) await ctx.queue.startWorkers({ concurrency: 1, pollingIntervalSeconds: 0.5 });
  return {
    app,
    ctx,
    engine,
    faceEditEngine,
    moderator,
    dataDir,
    async close() {
      await app.close();
      await ctx.queue.stop({ graceful: false, timeoutMs: 2000 }).catch(() => {});
      await ctx.events.close().catch(() => {});
      await database.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Verifies an account's address the way a customer does: opens the newest verification link mailed to
 * `email` in the app's outbox (decision 020). @returns the verify-email answer.
 */
/** Lets `signUpAndLogin` verify accounts of an app built without `createTestApp` (its DATA_DIR's outbox). */
export function useOutboxOf(app: FastifyInstance, dataDir: string): void {
  outboxOf.set(app, path.join(dataDir, 'outbox'));
}

export async function verifyFromOutbox(app: FastifyInstance, email: string) {
  const dir = outboxOf.get(app);
  if (!dir) throw new Error('not a createTestApp app');
  const token = latestLinkToken(dir, email, 'verify-email');
  if (!token) throw new Error(`no verification mail for ${email}`);
  const res = await app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`verify failed: ${res.statusCode} ${res.body}`);
  return res.json() as { success: true; welcomeCredits: number };
}

/**
 * Registers, verifies (through the outbox link, so the welcome credits are there as before issue 14)
 * and logs in a user through the API; returns the session cookie header and the user.
 * `opts.verify: false` leaves the account unverified.
 */
export async function signUpAndLogin(app: FastifyInstance, email = `u${Date.now()}${Math.random().toString(16).slice(2, 6)}@example.com`, password = 'correct horse battery', opts: { verify?: boolean } = {}) {
  const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'Tester', email, password } });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  if (opts.verify !== false && outboxOf.has(app)) await verifyFromOutbox(app, email);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const cookie = login.cookies.find((c) => c.name === 'dewy_sid');
  return { cookie: `dewy_sid=${cookie!.value}`, user: login.json() as { id: number; credits: number }, email, password };
}

/** The composition root for tests that build a context by hand (decision 039: modules never import bootstrap.ts). */
export { closeContext, createContext };
