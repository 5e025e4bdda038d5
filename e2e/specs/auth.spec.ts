import { expect, request, test } from '@playwright/test';
import { headerBalance, logIn, signUp, uniqueEmail } from './helpers';

test('sign up, see the balance, switch language, log out, log in, and see the session-expired modal', async ({ page, context, baseURL }) => {
  const email = uniqueEmail('auth');
  const password = 'correct-horse-1';
  await page.goto('/');
  await expect(page.getByTestId('landing-page')).toBeVisible();

  await signUp(page, email, password, '김테스트');
  await logIn(page, email, password);
  expect(await headerBalance(page)).toBe(300);

  // English and back
  await page.getByTestId('lang-en').click();
  await expect(page).toHaveURL(/\/en(\/|$)/);
  await expect(page.getByTestId('header')).toContainText(/tools/i);
  await page.getByTestId('lang-kr').click();
  await expect(page).not.toHaveURL(/\/en(\/|$)/);
  await expect(page.getByTestId('header')).toContainText('개 기능');

  // log out, log in
  await page.getByTestId('logout-button').click();
  await expect(page.getByTestId('nav-login')).toBeVisible();
  await expect(page.getByTestId('header-balance')).toHaveCount(0);
  await logIn(page, email, password);
  expect(await headerBalance(page)).toBe(300);
  // Login leads to /upscale: let its history call finish first. A call still in flight after the
  // server-side logout below would meet the expiry (and show the modal) before the reload this test is
  // about. (Not 'networkidle': the job event stream is a request that never ends.)
  await expect(page.getByTestId('upscale-history')).toContainText('아직 보정한 사진이 없습니다.');

  // the session is deleted on the server while the browser keeps its cookie
  const cookies = await context.cookies();
  const sid = cookies.find((c) => c.name === 'dewy_sid');
  expect(sid).toBeTruthy();
  const other = await request.newContext({ baseURL });
  const out = await other.post('/api/auth/logout', { headers: { cookie: `dewy_sid=${sid!.value}` } });
  expect(out.ok()).toBe(true);
  await other.dispose();

  await page.reload();
  const relogin = page.getByTestId('session-expired-login');
  await expect(relogin).toBeVisible();
  await expect(page.getByRole('dialog')).toContainText('로그인이 만료되었습니다');
  await relogin.click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('nav-login')).toBeVisible();
});

test('a wrong password shows the server message and keeps the visitor signed out', async ({ page }) => {
  const email = uniqueEmail('wrong');
  await signUp(page, email, 'right-password-1');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill('wrong-password-1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('이메일 또는 비밀번호가 올바르지 않습니다.');
  await expect(page.getByTestId('nav-login')).toBeVisible();
});

test('a duplicate e-mail in another case is answered like a new one: check your mail (decision 031)', async ({ page }) => {
  const email = uniqueEmail('dup');
  await signUp(page, email, 'password-1234');
  await page.goto('/en/signup');
  await page.getByTestId('signup-name').fill('Dup');
  await page.getByTestId('signup-email').fill(email.toUpperCase());
  await page.getByTestId('signup-password').fill('password-1234');
  await page.getByTestId('signup-submit').click();
  // The page does not say the address has an account; the owner's mailbox does.
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(page.getByText(`We sent a mail to ${email.toUpperCase()}. Follow it, then log in`)).toBeVisible();
  await expect(page.getByTestId('signup-error')).toHaveCount(0);
});
