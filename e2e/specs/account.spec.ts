import { expect, test, type Page } from '@playwright/test';
import { headerBalance, logIn, shot, signUp, uniqueEmail } from './helpers';
import { latestMailedLink } from './outbox';

/**
 * Issue 14, the e-mail and deletion half (decision 020), in the browser against the real server: the
 * links are read from the server's outbox (.eml files), as a newcomer without a mail server would.
 */

async function waitForLink(email: string, page: 'verify-email' | 'reset-password', not?: string): Promise<string> {
  let link: string | undefined;
  await expect.poll(() => {
    link = latestMailedLink(email, page);
    return link && link !== not ? 'ok' : 'waiting';
  }).toBe('ok');
  return link!;
}

async function at(page: Page, width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
}

test('sign up → the page says why credits are missing → open the mailed link → credits appear; the link works once', async ({ page }) => {
  const email = uniqueEmail('verify');
  const password = 'verify-pass-1';
  await signUp(page, email, password, '인증테스트', { verify: false });
  await logIn(page, email, password);
  expect(await headerBalance(page)).toBe(0);
  const banner = page.getByTestId('verify-banner');
  await expect(banner).toContainText('이메일 인증을 마치면 가입 축하 크레딧이 지급됩니다');
  await expect(banner).toContainText(email);
  await page.goto('/mypage');
  await expect(page.getByTestId('mypage')).toBeVisible();
  await at(page, 1440);
  await shot(page, 'account-banner-mypage-ko-1440', { fullPage: false });

  // Resend: a new link in the outbox.
  const first = await waitForLink(email, 'verify-email');
  await page.getByTestId('verify-banner-resend').click();
  await expect(page.getByText('새 인증 링크를 보냈습니다')).toBeVisible();
  const link = await waitForLink(email, 'verify-email', first);

  await page.goto(link);
  const card = page.getByTestId('verify-email');
  await expect(card).toHaveAttribute('data-state', 'success');
  await expect(page.getByTestId('verify-email-message')).toContainText('가입 축하 크레딧 300개가 지급되었습니다');
  await expect.poll(() => headerBalance(page)).toBe(300);
  await expect(page.getByTestId('verify-banner')).toHaveCount(0);
  await shot(page, 'account-verify-success-ko-1440');
  await at(page, 390);
  await shot(page, 'account-verify-success-ko-390');

  // The same link again: already used, credits unchanged.
  await page.goto(link.replace('/verify-email', '/en/verify-email'));
  await expect(page.getByTestId('verify-email')).toHaveAttribute('data-state', 'used');
  await expect(page.getByTestId('verify-email-message')).toHaveText('This link has already been used.');
  await shot(page, 'account-verify-used-en-390');
  expect(await headerBalance(page)).toBe(300);
  // An earlier link of the same address no longer grants anything either (the address had its credits).
  await page.goto(first);
  await expect(page.getByTestId('verify-email')).toHaveAttribute('data-state', 'success');
  await expect(page.getByTestId('verify-email-message')).toContainText('이미 받았습니다');
  expect(await headerBalance(page)).toBe(300);
});

test('forgot password → mailed link → new password → the old session is ended', async ({ page, browser }) => {
  const email = uniqueEmail('reset');
  await signUp(page, email, 'old-pass-word-1');
  await logIn(page, email, 'old-pass-word-1');
  await expect(page.getByTestId('upscale-history')).toBeVisible();

  // Another browser: the visitor who forgot.
  const other = await browser.newContext({ locale: 'en-US' });
  const p2 = await other.newPage();
  await p2.goto('/en/login');
  await p2.getByTestId('forgot-password-link').click();
  await expect(p2).toHaveURL(/\/en\/forgot-password$/);
  await at(p2, 1440);
  await shot(p2, 'account-forgot-en-1440');
  await p2.getByTestId('forgot-password-email').fill(email);
  await p2.getByTestId('forgot-password-submit').click();
  await expect(p2.getByTestId('forgot-password-sent')).toContainText(`If an account exists for ${email}`);
  await shot(p2, 'account-forgot-sent-en-1440');
  const link = await waitForLink(email, 'reset-password');
  expect(link).toContain('/en/reset-password?token=');
  await p2.goto(link);
  await p2.getByTestId('reset-password-input').fill('new-pass-word-2');
  await p2.getByTestId('reset-password-confirm').fill('new-pass-word-3');
  await p2.getByTestId('reset-password-submit').click();
  await expect(p2.getByTestId('reset-password-error')).toHaveText('The two passwords do not match.');
  await p2.getByTestId('reset-password-confirm').fill('new-pass-word-2');
  await shot(p2, 'account-reset-form-en-1440');
  await p2.getByTestId('reset-password-submit').click();
  await expect(p2.getByTestId('reset-password-done')).toContainText('every other session has been signed out');
  await at(p2, 390);
  await shot(p2, 'account-reset-done-en-390');

  // The same link again is refused in the page's language.
  await p2.goto(link);
  await p2.getByTestId('reset-password-input').fill('third-pass-word-3');
  await p2.getByTestId('reset-password-confirm').fill('third-pass-word-3');
  await p2.getByTestId('reset-password-submit').click();
  await expect(p2.getByTestId('reset-password-error')).toHaveText('This link has already been used.');
  await other.close();

  // The first browser's session is gone.
  await page.reload();
  await expect(page.getByTestId('session-expired-login')).toBeVisible();
  await page.getByTestId('session-expired-login').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill('old-pass-word-1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await logIn(page, email, 'new-pass-word-2');
  expect(await headerBalance(page)).toBe(300);
});

test('delete the account on My Page → signed out → sign-in offers undo → undo restores it', async ({ page }) => {
  const email = uniqueEmail('delete');
  const password = 'delete-pass-1';
  await signUp(page, email, password);
  await logIn(page, email, password);
  await page.goto('/mypage');
  await page.getByTestId('mypage-delete-open').click();
  await page.getByTestId('mypage-delete-password').fill('not-the-password');
  await page.getByTestId('mypage-delete-confirm').click();
  await expect(page.getByTestId('mypage-delete-error')).toHaveText('비밀번호가 올바르지 않습니다.');
  await at(page, 1440);
  await page.getByTestId('mypage-delete').scrollIntoViewIfNeeded();
  await shot(page, 'account-delete-form-ko-1440', { fullPage: false });
  await at(page, 390);
  await page.getByTestId('mypage-delete').scrollIntoViewIfNeeded();
  await shot(page, 'account-delete-form-ko-390', { fullPage: false });
  await page.getByTestId('mypage-delete-password').fill(password);
  await page.getByTestId('mypage-delete-confirm').click();
  await expect(page.getByTestId('nav-login')).toBeVisible();
  await expect(page.getByText('삭제될 예정입니다')).toBeVisible();

  // Sign-in offers the undo instead of a session.
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  const undo = page.getByTestId('login-undo-deletion');
  await expect(undo).toContainText('삭제될 예정입니다');
  await expect(page.getByTestId('header-balance')).toHaveCount(0);
  // Full-page shots from the top, so the sticky header is not caught mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'account-undo-ko-390');
  await at(page, 1440);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'account-undo-ko-1440');
  await page.getByTestId('login-undo-submit').click();
  await expect(page).toHaveURL(/\/mypage$/);
  await expect(page.getByTestId('header-balance')).toBeVisible();
  expect(await headerBalance(page)).toBe(300);
  // Restored: a normal sign-in works again.
  await page.getByTestId('mypage-logout').click();
  // Signed out first (the logout's answer clears the cookie): a login racing it would lose its session.
  await expect(page.getByTestId('nav-login')).toBeVisible();
  await logIn(page, email, password);
});

test('the new pages in both languages at 390 and 1440 px', async ({ page }) => {
  for (const lang of ['ko', 'en'] as const) {
    const prefix = lang === 'en' ? '/en' : '';
    for (const width of [390, 1440]) {
      await at(page, width);
      await page.goto(`${prefix}/forgot-password`);
      await expect(page.getByTestId('forgot-password')).toBeVisible();
      await shot(page, `account-forgot-${lang}-${width}`);
      await page.goto(`${prefix}/reset-password?token=${'x'.repeat(20)}`);
      await expect(page.getByTestId('reset-password-form')).toBeVisible();
      await shot(page, `account-reset-${lang}-${width}`);
      await page.goto(`${prefix}/verify-email?token=${'A'.repeat(43)}.${'B'.repeat(32)}`);
      await expect(page.getByTestId('verify-email')).toHaveAttribute('data-state', 'invalid');
      await shot(page, `account-verify-invalid-${lang}-${width}`);
      await page.goto(`${prefix}/login`);
      await expect(page.getByTestId('forgot-password-link')).toBeVisible();
      await shot(page, `account-login-${lang}-${width}`);
    }
  }
  // The unverified banner in English on a phone.
  const email = uniqueEmail('banner');
  await signUp(page, email, 'banner-pass-1', 'Banner', { verify: false });
  await logIn(page, email, 'banner-pass-1');
  await page.goto('/en/upscale');
  await at(page, 390);
  await expect(page.getByTestId('verify-banner')).toContainText('Verify your e-mail to receive your welcome credits');
  await shot(page, 'account-banner-upscale-en-390', { fullPage: false });
});
