import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { latestMailedLink } from './outbox';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const FIXTURES = path.resolve(ROOT, '../shared/fixtures/portraits');
export const SHOTS = path.join(ROOT, '.artifacts/screenshots');

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(16).slice(2, 6)}@example.com`;
}

/**
 * Signs up through the page and lands on /login (spec: a successful sign-up leads to login). The
 * account is then verified by the link mailed to the outbox (decision 020: the welcome credits wait for
 * it), unless `verify: false`; the browser stays on /login.
 */
export async function signUp(page: Page, email: string, password: string, name = 'Tester', { verify = true }: { verify?: boolean } = {}) {
  await page.goto('/signup');
  await page.getByTestId('signup-name').fill(name);
  await page.getByTestId('signup-email').fill(email);
  await page.getByTestId('signup-password').fill(password);
  await page.getByTestId('signup-submit').click();
  await expect(page).toHaveURL(/\/login$/);
  if (verify) await verifyByMail(page, email);
}

/** Opens the verification link mailed to `email` through the API (the page stays where it is). */
export async function verifyByMail(page: Page, email: string) {
  const link = latestMailedLink(email, 'verify-email');
  if (!link) throw new Error(`no verification mail for ${email} in the outbox`);
  const token = new URL(link).searchParams.get('token')!;
  const origin = new URL(page.url()).origin;
  const res = await page.request.post('/api/auth/verify-email', { data: { token }, headers: { origin } });
  expect(res.status(), await res.text()).toBe(200);
}

export async function logIn(page: Page, email: string, password: string) {
  if (!/\/login$/.test(page.url())) await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('header-balance')).toBeVisible();
}

/**
 * A verified, signed-in customer for a test whose subject is not sign-up or login (those forms have
 * their own specs: auth, account, newcomer): registered and logged in through the API as the forms
 * would, verified by the mailed link, then on `landing` (default '/') with the header's balance shown.
 * The browser context holds the session cookie, exactly as after the forms.
 */
export async function signUpAndLogInByApi(
  page: Page,
  email: string,
  password: string,
  { name = 'Tester', landing = '/' }: { name?: string; landing?: string } = {},
) {
  const origin = new URL(landing, String(test.info().project.use.baseURL)).origin;
  const reg = await page.request.post('/api/auth/register', { data: { name, email, password }, headers: { origin } });
  expect(reg.status(), await reg.text()).toBe(201);
  const link = latestMailedLink(email, 'verify-email');
  if (!link) throw new Error(`no verification mail for ${email} in the outbox`);
  const verified = await page.request.post('/api/auth/verify-email', { data: { token: new URL(link).searchParams.get('token') }, headers: { origin } });
  expect(verified.status(), await verified.text()).toBe(200);
  const login = await page.request.post('/api/auth/login', { data: { email, password }, headers: { origin } });
  expect(login.status(), await login.text()).toBe(200);
  await page.goto(landing);
  await expect(page.getByTestId('header-balance')).toBeVisible();
}

/**
 * Opens `path` as a signed-in customer and waits until the page has verified the session with the
 * server (the header's balance shows only then). The pricing page refuses a purchase with a wait
 * message while auth is still loading (spec 000 §5), so a test that clicks a buy button waits here first.
 */
export async function gotoSignedIn(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByTestId('header-balance')).toBeVisible();
}

export async function headerBalance(page: Page): Promise<number> {
  const text = (await page.getByTestId('header-balance-value').textContent()) ?? '';
  return Number(text.replace(/[^0-9]/g, ''));
}

/** Screenshot into .artifacts/screenshots; `fullPage: false` keeps only the window (a dialog on a phone). */
export async function shot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
}

/** Pays on the sandbox hosted checkout page the pricing page sent the browser to (test card 4242…). */
export async function payOnSandbox(page: Page) {
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/?#]+/);
  await expect(page.locator('input[name="card"]')).toHaveValue(/4242\s?4242\s?4242\s?4242/);
  await page.getByTestId('sandbox-pay').click();
}

/** The success page after a completed checkout (it counts 5 s down to home, so check it at once). */
export async function expectPaymentSuccess(page: Page, granted: string) {
  await expect(page).toHaveURL(/\/payment\/success\?checkout=/);
  await expect(page.getByTestId('payment-success')).toBeVisible();
  await expect(page.getByTestId('payment-granted')).toContainText(granted);
  await expect(page.getByTestId('payment-countdown')).toBeVisible();
}
