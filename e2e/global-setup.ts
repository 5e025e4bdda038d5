import type { FullConfig } from '@playwright/test';
import { ADMIN } from './specs/admin-account';
import { latestMailedLink } from './specs/outbox';

/**
 * Runs after the web server is up (Playwright starts `webServer` before global setup) and before any
 * spec: registers the administrator (the first account of the fresh e2e database, id 1) and checks that
 * the server agrees it is the administrator. Every spec then signs in as ADMIN when it needs it, so no
 * spec has to run first and another spec's sign-up can never take id 1.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error('global-setup: no baseURL');
  const origin = new URL(baseURL).origin;
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

  const reg = await post('/api/auth/register', { name: ADMIN.name, email: ADMIN.email, password: ADMIN.password });
  if (reg.status !== 201) throw new Error(`global-setup: registering the administrator failed: ${reg.status} ${await reg.text()}`);
  // The sign-up answer names no account (decision 031): the login says who we are.
  const login = await post('/api/auth/login', { email: ADMIN.email, password: ADMIN.password });
  if (login.status !== 200) throw new Error(`global-setup: signing the administrator in failed: ${login.status} ${await login.text()}`);
  const user = (await login.json()) as { id: number; isAdmin: boolean };
  if (user.id !== 1 || !user.isAdmin) {
    throw new Error(`global-setup: the administrator must be the first account (id 1), got id ${user.id} (isAdmin ${user.isAdmin}); is the e2e database fresh?`);
  }
  // Verified through the mailed link like every test account (decision 020).
  const link = latestMailedLink(ADMIN.email, 'verify-email');
  const token = link ? new URL(link).searchParams.get('token') : null;
  const ver = token ? await post('/api/auth/verify-email', { token }) : null;
  if (ver?.status !== 200) throw new Error(`global-setup: verifying the administrator failed: ${ver ? `${ver.status} ${await ver.text()}` : 'no mail in the outbox'}`);
}
