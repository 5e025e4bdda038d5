import { expect, test, type Browser, type Page } from '@playwright/test';
import path from 'node:path';
import { SHOTS, logIn, shot, signUp, uniqueEmail } from './helpers';

/**
 * Social sign-in (issue 14, decision 021) in the browser, through the fake Kakao/Naver servers that
 * playwright.config.ts starts on E2E_SOCIAL_PORT (Google stays unconfigured here: its button says so).
 * Kakao signs a new customer up and in; My Page lists the identity and keeps the last sign-in method;
 * an e-mail of an existing account is not linked silently, the login page says why in both languages,
 * and the owner links Kakao from My Page and unlinks it again. Screenshots: login with the social
 * buttons and My Page's sign-in methods at 390 and 1440 px, ko and en.
 */

const FAKE = `http://127.0.0.1:${Number(process.env.E2E_SOCIAL_PORT ?? Number(process.env.E2E_PORT ?? 5199) + 1000)}`;

/** The person who "agrees" at the fake Kakao's next authorize request. */
async function nextKakaoUser(user: { id: number; email?: string; isEmailValid?: boolean; isEmailVerified?: boolean; nickname?: string }) {
  const res = await fetch(`${FAKE}/__fake/users/kakao`, { method: 'PUT', body: JSON.stringify(user) });
  expect(res.status).toBe(200);
}

async function pageAt(browser: Browser, width: number, locale: 'ko-KR' | 'en-US' = 'ko-KR'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, locale });
  return context.newPage();
}

const rnd = () => Math.floor(Math.random() * 1e9);

test('Kakao signs a new customer up through the provider; My Page lists it and keeps the last way to sign in', async ({ browser }) => {
  const email = `kakao-${Date.now()}-${rnd()}@kakao.example`;
  await nextKakaoUser({ id: rnd(), email, isEmailValid: true, isEmailVerified: true, nickname: '카카오 고객' });
  const page = await pageAt(browser, 1440);
  await page.goto('/login');
  await expect(page.getByTestId('social-kakao')).toHaveAttribute('href', /\/api\/auth\/kakao\?locale=ko/);
  await page.getByTestId('social-kakao').click();
  await expect(page).toHaveURL(/\/upscale$/);
  await expect(page.getByTestId('header-balance-value')).toHaveText(/300/);

  await page.goto('/mypage');
  const kakao = page.getByTestId('account-kakao');
  await expect(kakao).toHaveAttribute('data-linked', 'true');
  await expect(kakao).toContainText(email);
  await expect(page.getByTestId('account-password')).toContainText('없음');
  // The only way to sign in: the page refuses to unlink it (the server does too, tested in apps/server).
  await expect(page.getByTestId('account-unlink-kakao')).toBeDisabled();
  await expect(page.getByTestId('account-naver')).toHaveAttribute('data-linked', 'false');
  await expect(page.getByTestId('account-link-naver')).toBeVisible();
  await expect(page.getByTestId('account-google')).toContainText('설정되지 않음');
  await page.getByTestId('mypage-account').scrollIntoViewIfNeeded();
  await page.getByTestId('mypage-account').screenshot({ path: path.join(SHOTS, 'social-mypage-account-1440-ko.png') });
  await shot(page, 'social-mypage-1440-ko');

  // The same identity signs in again from a new browser, to the same account (no second welcome grant).
  const again = await pageAt(browser, 390, 'en-US');
  await again.goto('/en/login');
  await again.getByTestId('social-kakao').click();
  await expect(again).toHaveURL(/\/en\/upscale$/);
  await expect(again.getByTestId('header-balance-value')).toHaveText(/300/);
  await again.goto('/en/mypage');
  await expect(again.getByTestId('account-kakao')).toContainText(email);
  await expect(again.getByTestId('account-password')).toContainText('None');
  await shot(again, 'social-mypage-390-en');
  await again.getByTestId('mypage-account').screenshot({ path: path.join(SHOTS, 'social-mypage-account-390-en.png') });
  await again.context().close();
  await page.context().close();
});

test('an existing account\'s e-mail is not linked silently: the login page says so; the owner links Kakao from My Page and unlinks it', async ({ browser }) => {
  const email = uniqueEmail('social-owner');
  const password = 'social-owner-pass';
  const kakaoId = rnd();
  await nextKakaoUser({ id: kakaoId, email, isEmailValid: true, isEmailVerified: true, nickname: 'Owner' });

  const page = await pageAt(browser, 390);
  await signUp(page, email, password, 'Owner');
  await page.getByTestId('social-kakao').click();
  await expect(page).toHaveURL(/\/login\?error=SOCIAL_ACCOUNT_EXISTS$/);
  await expect(page.getByTestId('login-error')).toHaveText('이 이메일로 가입된 계정이 이미 있습니다. 먼저 그 계정으로 로그인한 뒤 마이페이지에서 연결해 주세요.');
  await shot(page, 'social-login-390-ko-account-exists');
  await expect(page.getByTestId('header-balance')).toHaveCount(0);

  const en = await pageAt(browser, 1440, 'en-US');
  await en.goto('/en/login?error=SOCIAL_ACCOUNT_EXISTS');
  await expect(en.getByTestId('login-error')).toHaveText('An account with this e-mail already exists. Sign in to it first, then link this sign-in from My Page.');
  await en.goto('/en/login?error=<script>');
  await expect(en.getByTestId('login-error')).toHaveCount(0);
  await en.context().close();

  // Signed in with the password, the owner links the same Kakao account from My Page.
  await logIn(page, email, password);
  await page.goto('/mypage');
  await expect(page.getByTestId('account-password')).toContainText('설정됨');
  await page.getByTestId('account-link-kakao').click();
  await expect(page).toHaveURL(/\/mypage$/);
  await expect(page.getByText('카카오 계정이 연결되었습니다.')).toBeVisible();
  await expect(page.getByTestId('account-kakao')).toHaveAttribute('data-linked', 'true');
  await shot(page, 'social-mypage-390-ko');
  await page.getByTestId('mypage-account').screenshot({ path: path.join(SHOTS, 'social-mypage-account-390-ko.png') });
  // A password remains, so Kakao may go.
  await page.getByTestId('account-unlink-kakao').click();
  await expect(page.getByTestId('account-kakao')).toHaveAttribute('data-linked', 'false');
  await expect(page.getByTestId('account-link-kakao')).toBeVisible();
  await page.context().close();
});

test('login page with the social buttons at 390 and 1440 px in both languages; Google is not configured here and says so', async ({ browser }) => {
  for (const width of [390, 1440]) {
    for (const lang of ['ko', 'en'] as const) {
      const page = await pageAt(browser, width, lang === 'ko' ? 'ko-KR' : 'en-US');
      await page.goto(lang === 'ko' ? '/login' : '/en/login');
      await expect(page.getByTestId('social-naver')).toHaveAttribute('href', new RegExp(`/api/auth/naver\\?locale=${lang}`));
      await expect(page.getByTestId('social-kakao')).toHaveAttribute('href', new RegExp(`/api/auth/kakao\\?locale=${lang}`));
      await shot(page, `social-login-${width}-${lang}`);
      if (width === 1440) {
        await page.getByTestId('social-google').click();
        await expect(page.getByText(lang === 'ko' ? '소셜 로그인은 아직 설정되지 않았습니다. 이메일로 이용해 주세요.' : 'Social login is not configured yet. Please use your e-mail.')).toBeVisible();
      }
      await page.context().close();
    }
  }
  // My Page at 1440 in English for a password account without identities.
  const page = await pageAt(browser, 1440, 'en-US');
  const email = uniqueEmail('social-en');
  await signUp(page, email, 'social-en-pass', 'Reader');
  await logIn(page, email, 'social-en-pass');
  await page.goto('/en/mypage');
  await expect(page.getByTestId('account-kakao')).toContainText('Not linked');
  await page.getByTestId('mypage-account').screenshot({ path: path.join(SHOTS, 'social-mypage-account-1440-en.png') });
  await page.context().close();
});
