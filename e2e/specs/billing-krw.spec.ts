import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { expectPaymentSuccess, gotoSignedIn, headerBalance, payOnSandbox, shot, SHOTS, signUpAndLogInByApi, uniqueEmail } from './helpers';
import { mailsTo } from './outbox';

/**
 * Won and dollars (issue 25) through the sandbox provider: the Korean page shows won, a pack is paid
 * with Kakao Pay on the sandbox checkout, the credits arrive, My Page's billing history has the line
 * (카카오페이, ₩) and its receipt link opens our receipt with the amount, and the outbox holds exactly one
 * purchase-confirmation mail; the same in English in dollars with a card. Plus the currency switch (remembered), the landing teaser's prices, and the page when
 * the provider takes only dollars. Screens at 390 and 1440 px of /pricing, the billing history and the
 * receipt in both languages (.artifacts/screenshots/billing-krw-*).
 */

const PASSWORD = 'krw-pass-1234';
/** The purchase-confirmation mail's subject in each language (apps/server providers/mail/templates.ts). */
const PURCHASE_SUBJECT = { ko: '[Dewy] 결제가 완료되었습니다', en: '[Dewy] Your payment is complete' } as const;

/** The purchase-confirmation mails the outbox holds for `email`. */
function purchaseMails(email: string, lang: 'ko' | 'en') {
  return mailsTo(email).filter((m) => m.subject === PURCHASE_SUBJECT[lang]);
}

/** A screenshot of one element (a My Page card) next to the full-page ones of {@link shot}. */
async function cardShot(card: Locator, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await card.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

/**
 * A full-page screenshot from the top: a fresh load can come back scrolled to where the tab's previous
 * page was (react-router's ScrollRestoration keys every first entry 'default'), which would draw the
 * sticky header over the page's top in the picture.
 */
async function topShot(page: Page, name: string) {
  await expect
    .poll(() => page.evaluate(() => new Promise<number>((resolve) => {
      window.scrollTo(0, 0);
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY)));
    })))
    .toBe(0);
  await shot(page, name);
}

/** A signed-in customer in a context of its own, in the language of `landing`. */
async function customer(browser: Browser, tag: string, lang: 'ko' | 'en') {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
  // The account's language (its mails') is the one the visitor signs up in.
  await context.addCookies([{ name: 'locale', value: lang, url: String(test.info().project.use.baseURL) }]);
  const page = await context.newPage();
  const email = uniqueEmail(tag);
  await signUpAndLogInByApi(page, email, PASSWORD, { name: lang === 'ko' ? '원화고객' : 'Dollar Buyer', landing: lang === 'ko' ? '/' : '/en' });
  return { context, page, email };
}

/** The server's price answer as a provider that takes only dollars would give it (Lemon Squeezy). */
async function dollarsOnly(page: Page) {
  await page.route('**/api/payment/prices', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { currencies: string[] };
    await route.fulfill({ response: res, json: { ...body, currencies: ['usd'] } });
  });
}

/** /pricing (and its one-time tab) at both widths; the page must already be in `lang`. */
async function pricingShots(page: Page, lang: 'ko' | 'en') {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoSignedIn(page, lang === 'en' ? '/en/pricing' : '/pricing');
    await expect(page.getByTestId('plan-price-basic')).toBeVisible();
    await topShot(page, `billing-krw-pricing-${lang}-${width}`);
    await page.getByTestId('pricing-tab-credits').click();
    await expect(page.getByTestId('pack-price-package1')).toBeVisible();
    await topShot(page, `billing-krw-packs-${lang}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The billing card and the receipt page at both widths. */
async function historyAndReceiptShots(page: Page, lang: 'ko' | 'en', receiptPath: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoSignedIn(page, lang === 'en' ? '/en/mypage' : '/mypage');
    const card = page.getByTestId('mypage-billing');
    await expect(card.getByTestId('mypage-billing-row').first()).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await cardShot(card, `billing-krw-history-${lang}-${width}`);
    await gotoSignedIn(page, receiptPath);
    await expect(page.getByTestId('receipt')).toBeVisible();
    await topShot(page, `billing-krw-receipt-${lang}-${width}`);
  }
  // What the Print button prints: the sheet alone, black on white.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('header')).toBeHidden();
  await expect(page.getByTestId('receipt-print')).toBeHidden();
  await topShot(page, `billing-krw-receipt-print-${lang}`);
  await page.emulateMedia({ media: 'screen' });
}

test('visitors: won on the Korean landing and pricing pages, dollars in English; the switch is remembered; dollars only when the provider takes only dollars', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('plan-teaser-price-basic')).toHaveText('₩12,600/월');
  await expect(page.getByTestId('plan-teaser-price-premium')).toHaveText('₩40,600/월');

  await page.goto('/pricing');
  await expect(page.getByTestId('plan-price-basic')).toHaveText('₩12,600');
  await expect(page.getByTestId('pricing-currency-krw')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('pricing-currency')).toHaveAccessibleName('결제 통화');
  await expect(page.getByTestId('pricing-currency-krw')).toHaveText('원 (KRW)');
  await expect(page.getByTestId('pricing-currency-usd')).toHaveText('US$ (USD)');
  // The credits are the same in both currencies.
  await expect(page.getByTestId('plan-card-premium')).toContainText('14,500');
  // Keyboard: one tab stop, the arrow moves the choice.
  await page.getByTestId('pricing-currency-krw').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('pricing-currency-usd')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('pricing-currency-usd')).toBeFocused();
  await expect(page.getByTestId('plan-price-basic')).toHaveText('$9');
  await expect(page.getByTestId('plan-card-premium')).toContainText('14,500');
  await page.reload();
  await expect(page.getByTestId('plan-price-basic')).toHaveText('$9');
  await page.getByTestId('pricing-tab-credits').click();
  await expect(page.getByTestId('pack-price-package5')).toHaveText('$30');
  await page.getByTestId('pricing-currency-krw').click();
  await expect(page.getByTestId('pack-price-package5')).toHaveText('₩42,000');
  await expect(page.getByTestId('pack-card-package5')).toContainText('9,750');

  // A provider that takes only dollars (Lemon Squeezy): no switch, the page says so plainly.
  await dollarsOnly(page);
  await page.goto('/pricing');
  await expect(page.getByTestId('pricing-usd-only')).toHaveText('결제는 미국 달러(USD)로 진행됩니다.');
  await expect(page.getByTestId('pricing-currency')).toHaveCount(0);
  await expect(page.getByTestId('plan-price-basic')).toHaveText('$9');
  await page.goto('/');
  await expect(page.getByTestId('plan-teaser-price-basic')).toHaveText('$9/월');
  await page.unrouteAll({ behavior: 'wait' });

  // English (which then sticks): dollars.
  await page.goto('/en');
  await expect(page.getByTestId('plan-teaser-price-basic')).toHaveText('$9/mo');
  await page.evaluate(() => window.localStorage.removeItem('currency'));
  await page.goto('/en/pricing');
  await expect(page.getByTestId('pricing-currency-usd')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('plan-price-deluxe')).toHaveText('$19');
  await expect(page.getByTestId('pricing-page')).toContainText('You get the same credits whichever currency you pay in.');
  await dollarsOnly(page);
  await page.goto('/en/pricing');
  await expect(page.getByTestId('pricing-usd-only')).toHaveText('Payment is in US dollars (USD).');
  await expect(page.getByTestId('pricing-currency')).toHaveCount(0);
});

test('in Korean: a pack in won with Kakao Pay → credits, the billing line (카카오페이, ₩) and our receipt; screens', async ({ browser }) => {
  const { context, page, email } = await customer(browser, 'krw', 'ko');
  const start = await headerBalance(page);

  await gotoSignedIn(page, '/pricing?tab=credits');
  await expect(page.getByTestId('pricing-currency-krw')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('pack-price-package1')).toHaveText('₩7,000');
  await page.getByTestId('pack-buy-package1').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByTestId('sandbox-amount')).toHaveText('₩7,000');
  await page.getByTestId('sandbox-method-kakao_pay').click();
  await page.getByTestId('sandbox-pay').click();
  await expectPaymentSuccess(page, '1,500');
  await expect.poll(() => headerBalance(page)).toBe(start + 1500);
  // One purchase-confirmation mail, in Korean, with the amount in won and the method.
  await expect.poll(() => purchaseMails(email, 'ko').length).toBe(1);
  expect(purchaseMails(email, 'ko')[0]!.body).toContain('결제 금액: ₩7,000 (카카오페이)');

  await gotoSignedIn(page, '/mypage');
  const rows = page.getByTestId('mypage-billing-row');
  await expect(rows).toHaveCount(1);
  const line = rows.first();
  await expect(line).toHaveAttribute('data-kind', 'purchase');
  await expect(line.getByTestId('mypage-billing-item')).toHaveText('스타터 크레딧 팩');
  await expect(line.getByTestId('mypage-billing-kind')).toHaveText('크레딧 구매');
  await expect(line.getByTestId('mypage-billing-amount')).toHaveText('₩7,000');
  await expect(line.getByTestId('mypage-billing-method')).toHaveText('카카오페이');
  await expect(line.getByTestId('mypage-billing-credits')).toHaveText('+1,500');
  await expect(line).toContainText('KST');
  const link = line.getByTestId('mypage-billing-receipt');
  await expect(link).toHaveAttribute('data-receipt', 'ours');
  await link.click();
  await expect(page).toHaveURL(/\/mypage\/receipts\/\d+$/);
  const receiptPath = new URL(page.url()).pathname;
  await expect(page.getByTestId('receipt-amount')).toHaveText('₩7,000');
  await expect(page.getByTestId('receipt-number')).toHaveText(/^DEWY-\d{8}-\d+$/);
  await expect(page.getByTestId('receipt-method')).toHaveText('카카오페이');
  await expect(page.getByTestId('receipt-currency')).toHaveText('대한민국 원 (KRW)');
  await expect(page.getByTestId('receipt-item')).toContainText('스타터 크레딧 팩');
  await expect(page.getByTestId('receipt-credits')).toHaveText('+1,500');
  await expect(page.getByTestId('receipt-refund')).toHaveText('환불 없음');
  await expect(page.getByTestId('receipt-customer')).toContainText(email);
  await expect(page.getByTestId('receipt-paid-at')).toContainText('KST');
  // The e2e server sets no business details: the receipt shows no seller block rather than blanks.
  await expect(page.getByTestId('receipt-seller')).toHaveCount(0);
  await expect(page.getByTestId('receipt-print')).toHaveText('인쇄');
  await expect(page).toHaveTitle('영수증 · Dewy');

  // With the operator's details partly set, the receipt shows those and only those (GET /api/site-info).
  await page.route('**/api/site-info', (route) =>
    route.fulfill({ json: { success: true, company: { name: '듀이 주식회사', ceo: null, address: null, registrationNo: '123-45-67890', mailOrderNo: null }, supportEmail: 'help@dewy.example' } }),
  );
  await page.reload();
  const seller = page.getByTestId('receipt-seller');
  await expect(seller).toBeVisible();
  await expect(seller.getByTestId('receipt-seller-name')).toHaveText('듀이 주식회사');
  await expect(seller.getByTestId('receipt-seller-registrationNo')).toHaveText('123-45-67890');
  await expect(seller.getByTestId('receipt-seller-email')).toHaveText('help@dewy.example');
  await expect(seller.locator('dt')).toHaveText(['상호', '사업자등록번호', '고객지원 이메일']);
  await expect(page.getByTestId('footer-company')).toContainText('상호: 듀이 주식회사');
  await expect(page.getByTestId('footer-company')).not.toContainText('대표자');
  await topShot(page, 'billing-krw-receipt-seller-ko-1440');
  await page.unrouteAll({ behavior: 'wait' });

  // An id that is nobody's reads "not found".
  await page.goto('/mypage/receipts/2147483000');
  await expect(page.getByTestId('receipt-not-found')).toContainText('영수증을 찾을 수 없습니다.');

  await pricingShots(page, 'ko');
  await historyAndReceiptShots(page, 'ko', receiptPath);
  // Still exactly one: reading the history and the receipt mails nothing more.
  expect(purchaseMails(email, 'ko')).toHaveLength(1);
  await context.close();
});

test('in English: a pack in dollars with a card → the billing line (Card, $) and our receipt; another customer cannot open it; screens', async ({ browser }) => {
  const { context, page, email } = await customer(browser, 'usd', 'en');
  const start = await headerBalance(page);

  await gotoSignedIn(page, '/en/pricing?tab=credits');
  await expect(page.getByTestId('pricing-currency-usd')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('pack-price-package1')).toHaveText('$5');
  await page.getByTestId('pack-buy-package1').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByTestId('sandbox-amount')).toHaveText('$5');
  await payOnSandbox(page);
  await expectPaymentSuccess(page, '1,500');
  await expect.poll(() => headerBalance(page)).toBe(start + 1500);
  await expect.poll(() => purchaseMails(email, 'en').length).toBe(1);
  expect(purchaseMails(email, 'en')[0]!.body).toContain('Amount paid: $5 (Card)');

  await gotoSignedIn(page, '/en/mypage');
  const line = page.getByTestId('mypage-billing-row').first();
  await expect(page.getByTestId('mypage-billing-row')).toHaveCount(1);
  await expect(line.getByTestId('mypage-billing-item')).toHaveText('Starter credit pack');
  await expect(line.getByTestId('mypage-billing-kind')).toHaveText('Credit purchase');
  await expect(line.getByTestId('mypage-billing-amount')).toHaveText('$5');
  await expect(line.getByTestId('mypage-billing-method')).toHaveText('Card');
  await expect(line.getByTestId('mypage-billing-credits')).toHaveText('+1,500');
  await line.getByTestId('mypage-billing-receipt').click();
  await expect(page).toHaveURL(/\/en\/mypage\/receipts\/\d+$/);
  const receiptPath = new URL(page.url()).pathname;
  await expect(page.getByTestId('receipt-amount')).toHaveText('$5');
  await expect(page.getByTestId('receipt-method')).toHaveText('Card');
  await expect(page.getByTestId('receipt-currency')).toHaveText('US dollar (USD)');
  await expect(page.getByTestId('receipt-refund')).toHaveText('Not refunded');
  await expect(page.getByTestId('receipt-print')).toHaveText('Print');

  await pricingShots(page, 'en');
  await historyAndReceiptShots(page, 'en', receiptPath);

  // Another customer opening this receipt is told it does not exist (in their language).
  const other = await customer(browser, 'other', 'en');
  await gotoSignedIn(other.page, receiptPath);
  await expect(other.page.getByTestId('receipt-not-found')).toContainText('Receipt not found.');
  await expect(other.page.getByTestId('receipt')).toHaveCount(0);
  await other.context.close();
  expect(purchaseMails(email, 'en')).toHaveLength(1);
  await context.close();
});
