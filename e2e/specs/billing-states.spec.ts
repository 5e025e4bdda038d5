import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { ADMIN } from './admin-account';
import { expectPaymentSuccess, gotoSignedIn, payOnSandbox, shot, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * What the customer sees about money (issue 21 points 12, 13, 14, 16; decision 030), through the sandbox
 * provider, in Korean and English at 390 and 1440 px: the pricing copy (credits reset at each renewal,
 * results kept 30 days), a scheduled downgrade withdrawn from My Page, a failed renewal shown as overdue
 * with a banner and the update-payment link (paid there, the banner goes), and the deletion warning
 * with the credits that would be lost.
 */

const VIEWS = [
  { lang: 'ko', width: 390 },
  { lang: 'ko', width: 1440 },
  { lang: 'en', width: 390 },
  { lang: 'en', width: 1440 },
] as const;
const at = (lang: 'ko' | 'en', path: string) => (lang === 'en' ? `/en${path}` : path);

/** The sandbox operator action (what `npm run billing -- <action> <email>` does), as the administrator. */
async function operate(baseURL: string, action: 'fail-renewal' | 'renew', email: string) {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  try {
    const login = await api.post('/api/auth/login', { data: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.status(), await login.text()).toBe(200);
    const r = await api.post('/api/admin/billing/sandbox', { data: { action, email } });
    expect(r.status(), await r.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

async function view(page: Page, lang: 'ko' | 'en', width: number, path: string) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(at(lang, path));
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

test('the pricing page tells the truth: credits reset at each renewal, results kept 30 days (ko, en; 390, 1440)', async ({ page }) => {
  for (const { lang, width } of VIEWS) {
    await view(page, lang, width, '/pricing');
    const card = page.getByTestId('plan-card-basic');
    await expect(card).toContainText(lang === 'ko' ? '결제일마다 새로 채워지며' : 'reset at each renewal');
    await expect(card).toContainText(lang === 'ko' ? '30일 보관' : 'kept for 30 days');
    await expect(card).not.toContainText(/any ?time/);
    await page.getByTestId('pricing-faq-expiry').click();
    await expect(page.getByTestId('pricing-faq')).toContainText(lang === 'ko' ? '이월되지 않습니다' : 'do not carry over');
    await shot(page, `billing-states-pricing-copy-${lang}-${width}`);
    await page.goto(at(lang, '/'));
    await expect(page.locator('body')).toContainText(lang === 'ko' ? '30일 동안' : 'for 30 days');
    await expect(page.locator('body')).not.toContainText('any time');
  }
});

test('withdraw a scheduled downgrade, a failed renewal shown as overdue with its banner and link, the deletion warning (ko, en; 390, 1440)', async ({ page, baseURL }) => {
  const email = uniqueEmail('states');
  const password = 'states-pass-1';
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndLogInByApi(page, email, password, { name: '상태테스트' });

  // --- subscribe to deluxe
  await gotoSignedIn(page, '/pricing');
  await page.getByTestId('plan-button-deluxe').click();
  await payOnSandbox(page);
  await expectPaymentSuccess(page, '9,500');

  // --- the downgrade dialog says "from the next cycle, can be withdrawn", never "immediate, cannot be undone"
  for (const { lang, width } of VIEWS) {
    await view(page, lang, width, '/pricing');
    await page.getByTestId('plan-button-basic').click();
    await expect(page.getByTestId('plan-change-downgrade')).toBeVisible();
    await expect(page.getByTestId('plan-change-withdrawable')).toContainText(lang === 'ko' ? '철회할 수 있습니다' : 'withdraw it');
    await expect(page.getByTestId('plan-change-warning')).toHaveCount(0);
    await shot(page, `billing-states-downgrade-dialog-${lang}-${width}`, { fullPage: false });
    if (lang === 'en' && width === 1440) {
      await page.getByTestId('plan-change-confirm').click();
      await expect(page).toHaveURL(/\/en\/mypage$/);
    } else {
      await page.getByTestId('plan-change-cancel').click();
    }
  }

  // --- My Page: the scheduled downgrade and its Withdraw button (confirmed first), in every view
  for (const { lang, width } of VIEWS) {
    await view(page, lang, width, '/mypage');
    await expect(page.getByTestId('subscription-next-plan')).toHaveText(lang === 'ko' ? '베이직' : 'Basic');
    await page.getByTestId('subscription-withdraw').click();
    await expect(page.getByTestId('subscription-withdraw-dialog')).toContainText(lang === 'ko' ? '디럭스' : 'Deluxe');
    await shot(page, `billing-states-withdraw-dialog-${lang}-${width}`, { fullPage: false });
    if (lang === 'en' && width === 1440) break;
    await page.getByTestId('subscription-withdraw-keep').click();
  }
  await page.getByTestId('subscription-withdraw-confirm').click();
  await expect(page.getByTestId('subscription-withdraw')).toHaveCount(0);
  await expect(page.getByTestId('subscription-next-plan')).toHaveCount(0);
  await page.goto('/en/pricing');
  await expect(page.getByTestId('plan-button-basic')).toHaveAttribute('data-state', 'downgrade');

  // --- a failed renewal: overdue, a banner with what to do and the update-payment link
  await operate(baseURL!, 'fail-renewal', email);
  for (const { lang, width } of VIEWS) {
    await view(page, lang, width, '/mypage');
    await expect(page.getByTestId('subscription-state')).toHaveText(lang === 'ko' ? '결제 연체' : 'Payment overdue');
    const banner = page.getByTestId('payment-issue-banner');
    await expect(banner).toContainText(lang === 'ko' ? '구독 결제에 실패했습니다' : 'Your subscription payment failed');
    await expect(page.getByTestId('payment-issue-update')).toHaveAttribute('href', /\/sandbox\/invoice\/sbx_in_/);
    await shot(page, `billing-states-past-due-mypage-${lang}-${width}`);
    await view(page, lang, width, '/pricing');
    await expect(page.getByTestId('payment-issue-banner')).toBeVisible();
    await expect(page.getByTestId('subscription-state')).toHaveText(lang === 'ko' ? '결제 연체' : 'Payment overdue');
    await expect(page.getByTestId('plan-button-deluxe')).toHaveText(lang === 'ko' ? '결제 연체' : 'Payment overdue');
    await shot(page, `billing-states-past-due-pricing-${lang}-${width}`);
  }
  // paying on the link ends it
  await page.getByTestId('payment-issue-update').click();
  await expect(page).toHaveURL(/\/sandbox\/invoice\//);
  await page.getByTestId('sandbox-pay').click();
  await expect(page).toHaveURL(/\/mypage/);
  await expect(page.getByTestId('subscription-state')).toHaveText('Active');
  await expect(page.getByTestId('payment-issue-banner')).toHaveCount(0);

  // --- the deletion warning: the credits lost, with the numbers, and the subscription cancelled
  for (const { lang, width } of VIEWS) {
    await view(page, lang, width, '/mypage');
    const num = async (id: string) => Number(((await page.getByTestId(id).textContent()) ?? '').replace(/[^0-9]/g, ''));
    const purchased = (await num('mypage-credits-one-time')) + (await num('mypage-credits-bonus'));
    const subscription = await num('mypage-credits-subscription');
    expect(subscription).toBe(9500);
    await page.getByTestId('mypage-delete-open').click();
    await expect(page.getByTestId('mypage-delete-loss-purchased')).toContainText(purchased.toLocaleString('en-US'));
    await expect(page.getByTestId('mypage-delete-loss-subscription')).toContainText('9,500');
    await expect(page.getByTestId('mypage-delete-loss-plan')).toContainText(lang === 'ko' ? '디럭스' : 'Deluxe');
    await page.getByTestId('mypage-delete').scrollIntoViewIfNeeded();
    await shot(page, `billing-states-delete-warning-${lang}-${width}`, { fullPage: false });
  }
});
