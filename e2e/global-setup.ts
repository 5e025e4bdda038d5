import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { E2E_SERVERS } from './playwright.config';
import { ADMIN } from './specs/admin-account';
import { latestMailedLink } from './specs/outbox';

/**
 * Runs after the web servers are up (Playwright starts `webServer` before global setup) and before any
 * spec: on each app server (E2E_SERVERS: the one most specs share and the one of the global-state
 * project), registers the administrator (the first account of that server's fresh database, id 1) and
 * checks that the server agrees it is the administrator. Every spec then signs in as ADMIN when it needs
 * it, so no spec has to run first and another spec's sign-up can never take id 1.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  if (!config.projects[0]?.use.baseURL) throw new Error('global-setup: no baseURL');
  await Promise.all(E2E_SERVERS.map((s) => createAdministrator(s.origin, path.join(s.dataDir, 'outbox'))));
}

/** Registers, verifies (through the mailed link in `outbox`) and checks the administrator on the server at `origin`. */
async function createAdministrator(origin: string, outbox: string): Promise<void> {
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

  const reg = await post('/api/auth/register', { name: ADMIN.name, email: ADMIN.email, password: ADMIN.password });
  if (reg.status !== 201) throw new Error(`global-setup: registering the administrator on ${origin} failed: ${reg.status} ${await reg.text()}`);
  // The sign-up answer names no account (decision 031): the login says who we are.
  const login = await post('/api/auth/login', { email: ADMIN.email, password: ADMIN.password });
  if (login.status !== 200) throw new Error(`global-setup: signing the administrator in on ${origin} failed: ${login.status} ${await login.text()}`);
  const user = (await login.json()) as { id: number; isAdmin: boolean };
  if (user.id !== 1 || !user.isAdmin) {
    throw new Error(`global-setup: the administrator must be the first account (id 1) on ${origin}, got id ${user.id} (isAdmin ${user.isAdmin}); is the e2e database fresh?`);
  }
  // Verified through the mailed link like every test account (decision 020), from this server's outbox.
  const link = latestMailedLink(ADMIN.email, 'verify-email', [outbox]);
  const token = link ? new URL(link).searchParams.get('token') : null;
  const ver = token ? await post('/api/auth/verify-email', { token }) : null;
  if (ver?.status !== 200) throw new Error(`global-setup: verifying the administrator on ${origin} failed: ${ver ? `${ver.status} ${await ver.text()}` : 'no mail in the outbox'}`);
}
