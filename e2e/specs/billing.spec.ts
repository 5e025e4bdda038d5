import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectPaymentSuccess, gotoSignedIn, headerBalance, payOnSandbox, shot, SHOTS, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * Billing through the sandbox provider (the server's embedded hosted checkout at /sandbox/checkout/<id>,
 * card prefilled with 4242 4242 4242 4242): a one-time pack, a new subscription, an upgrade through the
 * plan-change modal, cancel and resume; plus the pricing page's visitor states and the cancelled
 * checkout. Every page figure is checked against what the server granted (header balance).
 */

const PAID_PLANS = ['basic', 'deluxe', 'premium'] as const;

test('pricing for a visitor: Get Started leads to login and back; /pricing/en is English on a Korean path', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByTestId('pricing-page')).toBeVisible();
  for (const plan of PAID_PLANS) await expect(page.getByTestId(`plan-button-${plan}`)).toHaveText('시작하기');
  // Won on the Korean page (issue 25; billing-krw.spec.ts covers the currencies).
  await expect(page.getByTestId('plan-card-basic')).toContainText('₩12,600');
  await expect(page.getByTestId('plan-card-premium')).toContainText('14,500');

  // FAQ: ten questions, one open at a time
  const faq = page.getByTestId('pricing-faq');
  await expect(faq.locator('button[aria-expanded]')).toHaveCount(10);
  await page.getByTestId('pricing-faq-makeup').click();
  await expect(page.getByTestId('pricing-faq-makeup')).toHaveAttribute('aria-expanded', 'true');
  await page.getByTestId('pricing-faq-order').click();
  await expect(page.getByTestId('pricing-faq-makeup')).toHaveAttribute('aria-expanded', 'false');
  await expect(faq.locator('button[aria-expanded="true"]')).toHaveCount(1);

  // one-time packs need login; the intent survives it
  await page.getByTestId('pricing-tab-credits').click();
  await expect(page.getByTestId('pack-card-package5')).toContainText('9,750');
  await page.getByTestId('pack-buy-package1').click();
  await expect(page).toHaveURL(/\/login\?next=/);

  await page.goto('/pricing/en');
  await expect(page.getByTestId('pricing-page')).toContainText('Pricing');
  await expect(page.getByTestId('plan-button-deluxe')).toHaveText('Get Started');
  // the shell stays Korean on a Korean path
  await expect(page.getByTestId('header')).toContainText('요금제');
  await page.goto('/pricing/kr');
  await expect(page.getByTestId('plan-button-deluxe')).toHaveText('시작하기');
});

test('payment pages without a user go to /login', async ({ page }) => {
  await page.goto('/payment/success?checkout=latest');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/payment/failed');
  await expect(page).toHaveURL(/\/login$/);
});

test('buy a pack, subscribe, upgrade through the modal, cancel and resume, with the sandbox checkout', async ({ page }) => {
  const email = uniqueEmail('billing');
  const password = 'billing-pass-1';
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndLogInByApi(page, email, password, { name: '결제테스트' });
  const start = await headerBalance(page);

  // --- a cancelled checkout changes nothing and returns to the one-time tab
  await gotoSignedIn(page, '/pricing?tab=credits');
  await expect(page.getByTestId('pricing-page')).toBeVisible();
  await expect(page.getByTestId('payments-off')).toHaveCount(0);
  await page.getByTestId('pack-buy-package1').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByTestId('sandbox-cancel').click();
  await expect(page).toHaveURL(/\/pricing\?tab=credits$/);
  await expect(page.getByText('결제가 취소되었습니다.')).toBeVisible();
  expect(await headerBalance(page)).toBe(start);

  // --- one-time pack: package1, 1500 credits
  await page.getByTestId('pricing-tab-credits').click();
  await page.getByTestId('pack-buy-package1').click();
  await payOnSandbox(page);
  await expectPaymentSuccess(page, '1,500');
  await shot(page, 'billing-success-ko-1440');
  await expect(page.getByTestId('payment-purchase')).toContainText('스타터');
  // the page shows the balance after a forced session sync: the header rose with it
  await expect(page.getByTestId('payment-credits')).toHaveText((start + 1500).toLocaleString('en-US'));
  await expect.poll(() => headerBalance(page)).toBe(start + 1500);

  // --- new subscription: basic, 4500 credits
  await gotoSignedIn(page, '/pricing');
  const basic = page.getByTestId('plan-button-basic');
  await expect(basic).toHaveAttribute('data-state', 'checkout');
  await basic.click();
  await payOnSandbox(page);
  await expectPaymentSuccess(page, '4,500');
  await expect(page.getByTestId('payment-plan')).toHaveText('베이직');
  await expect.poll(() => headerBalance(page)).toBe(start + 1500 + 4500);

  // --- upgrade to deluxe through the confirmation modal: prorated, the credit difference at once
  await page.goto('/pricing');
  await expect(page.getByTestId('subscription-plan')).toHaveText('베이직');
  await expect(page.getByTestId('subscription-state')).toHaveText('이용 중');
  await expect(page.getByTestId('plan-button-basic')).toHaveAttribute('data-state', 'active');
  await expect(page.getByTestId('plan-button-basic')).toBeDisabled();
  await expect(page.getByTestId('plan-current-basic')).toBeVisible();
  const deluxe = page.getByTestId('plan-button-deluxe');
  await expect(deluxe).toHaveAttribute('data-state', 'upgrade');
  const beforeUpgrade = await headerBalance(page);
  await deluxe.click();
  await expect(page.getByTestId('plan-change-dialog')).toBeVisible();
  await expect(page.getByTestId('plan-change-from')).toContainText('베이직');
  await expect(page.getByTestId('plan-change-from')).toContainText('4,500');
  await expect(page.getByTestId('plan-change-to')).toContainText('디럭스');
  await expect(page.getByTestId('plan-change-to')).toContainText('9,500');
  // Prices in the subscription's currency (bought on the Korean page: won; issue 25).
  await expect(page.getByTestId('plan-change-from')).toContainText('₩12,600');
  await expect(page.getByTestId('plan-change-to')).toContainText('₩26,600');
  await expect(page.getByTestId('plan-change-proration')).toContainText('일할 계산');
  await expect(page.getByTestId('plan-change-proration')).toContainText('5,000');
  await expect(page.getByTestId('plan-change-warning')).toHaveText('업그레이드는 즉시 처리되며 되돌릴 수 없습니다.');
  await expect(page.getByTestId('plan-change-withdrawable')).toHaveCount(0);
  await shot(page, 'billing-upgrade-modal-ko-1440');
  await page.getByTestId('plan-change-confirm').click();
  // The pricing page goes to /mypage?refresh=<ts>; My Page refreshes at once and drops the parameter.
  await expect(page).toHaveURL(/\/mypage$/);
  await expect(page.getByTestId('mypage')).toBeVisible();
  await expect.poll(() => headerBalance(page)).toBe(beforeUpgrade + 5000);

  // --- a downgrade is offered for the next cycle, even while the stored session is still being verified
  // (the check is held on a latch): a plan change only opens its confirmation, a purchase waits (000 §5)
  let releaseCheck = () => {};
  const held = new Promise<void>((resolve) => (releaseCheck = resolve));
  await page.route('**/api/auth/check', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/pricing');
  await expect(page.getByTestId('subscription-plan')).toHaveText('디럭스');
  await expect(page.getByTestId('header-nav')).toHaveCount(0); // auth still loading
  await page.getByTestId('plan-button-basic').click();
  await expect(page.getByTestId('plan-change-downgrade')).toContainText('다음 결제 주기부터');
  await page.getByTestId('plan-change-cancel').click();
  await page.getByTestId('pricing-tab-credits').click();
  await page.getByTestId('pack-buy-package1').click();
  await expect(page.getByText('인증 상태를 확인하는 중입니다. 잠시 후 다시 시도해주세요.')).toBeVisible();
  await expect(page).toHaveURL(/\/pricing\?tab=credits$/);
  releaseCheck();
  await page.unrouteAll({ behavior: 'wait' });
  await expect(page.getByTestId('header-balance')).toBeVisible();
  await page.getByTestId('pricing-tab-monthly').click();
  await expect(page.getByTestId('subscription-plan')).toHaveText('디럭스');
  await expect(page.getByTestId('plan-button-basic')).toHaveAttribute('data-state', 'downgrade');
  await page.getByTestId('plan-button-basic').click();
  await expect(page.getByTestId('plan-change-downgrade')).toContainText('다음 결제 주기부터');
  // a downgrade can be withdrawn: never the "immediate, cannot be undone" warning of an upgrade
  await expect(page.getByTestId('plan-change-withdrawable')).toContainText('철회');
  await expect(page.getByTestId('plan-change-warning')).toHaveCount(0);
  await page.getByTestId('plan-change-cancel').click();
  await expect(page.getByTestId('plan-change-dialog')).toHaveCount(0);

  // --- cancel (confirmed first): scheduled until the period's end, every plan button blocked
  await page.getByTestId('subscription-cancel').click();
  await expect(page.getByTestId('subscription-cancel-dialog')).toBeVisible();
  await page.getByTestId('subscription-cancel-confirm').click();
  await expect(page.getByTestId('subscription-state')).toHaveText('취소 예약됨');
  await expect(page.getByTestId('subscription-date')).toBeVisible();
  await expect(page.getByTestId('subscription-cancel')).toHaveCount(0);
  for (const plan of PAID_PLANS) {
    await expect(page.getByTestId(`plan-button-${plan}`)).toHaveAttribute('data-state', 'cancelled');
    await expect(page.getByTestId(`plan-button-${plan}`)).toBeDisabled();
    await expect(page.getByTestId(`plan-button-${plan}`)).toHaveText('구독 취소됨');
  }
  await page.getByTestId('plan-button-premium').locator('..').focus();
  await expect(page.getByTestId('plan-button-premium-tooltip')).toBeVisible();
  await expect(page.getByTestId('plan-button-premium-tooltip')).toContainText('먼저 구독 취소를 철회');
  await shot(page, 'billing-cancel-scheduled-ko-1440');

  // --- resume: the subscription carries on
  await page.getByTestId('subscription-resume').click();
  await expect(page.getByTestId('subscription-state')).toHaveText('이용 중');
  await expect(page.getByTestId('subscription-cancel')).toBeVisible();
  await expect(page.getByTestId('plan-button-deluxe')).toHaveAttribute('data-state', 'active');
  await expect(page.getByTestId('plan-button-premium')).toHaveAttribute('data-state', 'upgrade');

  // --- screens: both tabs and the modal at 390 and 1440 px, Korean first (English then sticks)
  for (const lang of ['ko', 'en'] as const) {
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await gotoSignedIn(page, lang === 'en' ? '/en/pricing' : '/pricing');
      await expect(page.getByTestId('subscription-block')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await shot(page, `billing-pricing-${lang}-${width}`);
      await page.getByTestId('pricing-tab-credits').click();
      await expect(page.getByTestId('pack-card-package1')).toBeVisible();
      await shot(page, `billing-packs-${lang}-${width}`);
      await page.getByTestId('pricing-tab-monthly').click();
      await page.getByTestId('plan-button-premium').click();
      await expect(page.getByTestId('plan-change-proration')).toBeVisible();
      // The subscription bills in won, in English too: the dialog says what will be charged.
      await expect(page.getByTestId('plan-change-to')).toContainText('₩40,600');
      await page.screenshot({ path: shotPath(`billing-upgrade-modal-${lang}-${width}`), animations: 'disabled' });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('plan-change-dialog')).toHaveCount(0);
    }
  }
});

/** A viewport-only screenshot (an open modal) next to the full-page ones of {@link shot}. */
function shotPath(name: string): string {
  return path.join(SHOTS, `${name}.png`);
}
