import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES, SHOTS, expectPaymentSuccess, gotoSignedIn, headerBalance, logIn, payOnSandbox, shot, signUp, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * My Page (issue 10) against the real server with the sandbox payments provider: the sharer copies the
 * share link; a new visitor (another browser context, seen from another address) opens it, signs up and
 * buys a pack; the sharer's My Page shows half of the pack as bonus credits, the link's results and the
 * credit-history row. Then a subscription is cancelled and resumed from My Page, and the page is
 * captured at 390 and 1440 px in both languages. A second test retouches a photo and finds it in the
 * Retouch tab (viewer, download, broken-image placeholder, failed history → empty list) and in the
 * credit history as a spend with its job, and checks the 'link copy failed' message.
 */

const PASSWORD = 'mypage-pass-1';
/** The visitor's address as the e2e server reads it (TRUST_PROXY=loopback in playwright.config.ts). */
const VISITOR_IP = '203.0.113.7';

/** A viewport-only screenshot (an open dialog) next to the full-page ones of {@link shot}. */
async function viewShot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

/** Each empty history tab's own tool: its button's words and where it leads (issue 28, point 1). */
const EMPTY_TAB_TOOLS = {
  generate: { path: '/image-generation', ko: '이미지 생성하기', en: 'Generate an image' },
  imageEdit: { path: '/image-edit', ko: '이미지 편집하기', en: 'Edit an image' },
  faceEdit: { path: '/face-edit', ko: '얼굴 편집하기', en: 'Edit a face' },
} as const;

/**
 * Opens the Generate, Image Edit and Face Edit tabs of a My Page whose user has none of those results:
 * each says it is empty (never "coming soon": every tool is live) and its button names and links to
 * that tab's own tool, in the page's language.
 */
async function expectEmptyTabsLinkTheirTools(page: Page, lang: 'ko' | 'en') {
  for (const [tab, tool] of Object.entries(EMPTY_TAB_TOOLS)) {
    await page.getByTestId(`mypage-history-tab-${tab}`).click();
    const empty = page.getByTestId(`mypage-history-${tab}-empty`);
    await expect(empty).toBeVisible();
    await expect(empty).not.toContainText(lang === 'ko' ? '준비 중' : 'coming soon');
    const start = page.getByTestId(`mypage-history-${tab}-start`);
    await expect(start).toHaveText(tool[lang]);
    await expect(start).toHaveAttribute('href', lang === 'en' ? `/en${tool.path}` : tool.path);
  }
}

/** A signed-in page in a context of its own (cookies, storage, permissions). */
async function signedInPage(browser: Browser, email: string, name: string, opts: { headers?: Record<string, string> } = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'ko-KR', extraHTTPHeaders: opts.headers });
  const page = await context.newPage();
  await signUp(page, email, PASSWORD, name);
  await logIn(page, email, PASSWORD);
  return { context, page };
}

test('a signed-out visitor opening /mypage or /en/mypage is sent to /login', async ({ page }) => {
  await page.goto('/mypage');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/en/mypage');
  await expect(page).toHaveURL(/\/en\/login$/);
});

test('share link → referred sign-up and pack → the sharer sees the reward and the credit row; cancel and resume from My Page; screens', async ({ browser, baseURL }) => {
  // --- the sharer opens My Page: profile, credits by bucket, empty tabs, the welcome row
  const sharer = await signedInPage(browser, uniqueEmail('sharer'), '공유왕');
  const a = sharer.page;
  await sharer.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await a.goto('/mypage');
  await expect(a.getByTestId('mypage')).toBeVisible();
  await expect(a.getByTestId('mypage-nickname')).toHaveText('공유왕');
  await expect(a.getByTestId('mypage-plan')).toHaveText('무료');
  await expect(a.getByTestId('mypage-credits-total')).toHaveText('300');
  await expect(a.getByTestId('mypage-credits-one-time')).toHaveText('300');
  await expect(a.getByTestId('mypage-credits-bonus')).toHaveText('0');
  await expect(a.getByTestId('mypage-credits-subscription')).toHaveText('0');
  await expect(a.getByTestId('subscription-block')).toHaveCount(0); // free plan: no subscription block (001 §4)
  await expect(a.getByTestId('mypage-history-retouch-empty')).toContainText('아직 완료된 리터치가 없습니다.');
  await expectEmptyTabsLinkTheirTools(a, 'ko');
  await a.getByTestId('mypage-history-tab-retouch').click();
  const rows = a.getByTestId('mypage-ledger-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-label', 'welcome');
  await expect(rows.first().getByTestId('mypage-ledger-label')).toHaveText('가입 환영 크레딧');
  await expect(rows.first().getByTestId('mypage-ledger-delta')).toHaveText('+300');
  await expect(rows.first().getByTestId('mypage-ledger-balance')).toContainText('300');

  // --- nickname: checked on the page first, then saved
  await a.getByTestId('mypage-nickname-edit').click();
  await a.getByTestId('mypage-nickname-input').fill('   ');
  await a.getByTestId('mypage-nickname-save').click();
  await expect(a.getByTestId('mypage-nickname-error')).toHaveText('닉네임을 입력해주세요.');
  await a.getByTestId('mypage-nickname-input').fill('x'.repeat(51));
  await a.getByTestId('mypage-nickname-save').click();
  await expect(a.getByTestId('mypage-nickname-error')).toHaveText('닉네임은 50자 이하로 입력해주세요.');
  await a.getByTestId('mypage-nickname-input').fill('  공유의 달인  ');
  await a.getByTestId('mypage-nickname-save').click();
  await expect(a.getByTestId('mypage-nickname')).toHaveText('공유의 달인');
  await a.reload();
  await expect(a.getByTestId('mypage-nickname')).toHaveText('공유의 달인');

  // --- the share link: copied to the clipboard
  const linkField = a.getByTestId('mypage-affiliate-link');
  await expect(linkField).toHaveValue(new RegExp(`^${baseURL}/\\?aff=[A-Za-z0-9_-]{12}$`));
  const link = await linkField.inputValue();
  await a.getByTestId('mypage-affiliate-copy').click();
  await expect(a.getByText('링크가 복사되었습니다.')).toBeVisible();
  expect(await a.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(a.getByTestId('mypage-affiliate-clicks')).toHaveText('0');

  // --- a new visitor, from another address, opens the link: the click is recorded and the address cleaned
  const visitorContext = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ko-KR', extraHTTPHeaders: { 'x-forwarded-for': VISITOR_IP } });
  const v = await visitorContext.newPage();
  await v.goto(link);
  await expect(v).toHaveURL(`${baseURL}/`);
  expect((await visitorContext.cookies()).some((c) => c.name === 'dewy_aff' && c.httpOnly)).toBe(true);
  // … signs up (attributed, the cookie is then cleared), logs in and buys package1 (1500 credits)
  const visitorEmail = uniqueEmail('referred');
  await signUp(v, visitorEmail, PASSWORD, '친구');
  expect((await visitorContext.cookies()).some((c) => c.name === 'dewy_aff')).toBe(false);
  await logIn(v, visitorEmail, PASSWORD);
  await gotoSignedIn(v, '/pricing?tab=credits');
  await v.getByTestId('pack-buy-package1').click();
  await payOnSandbox(v);
  await expectPaymentSuccess(v, '1,500');
  await v.getByTestId('payment-to-mypage').click();
  await expect(v.getByTestId('mypage-credits-one-time')).toHaveText('1,800');
  await expect(v.getByTestId('mypage-ledger-row').first().getByTestId('mypage-ledger-label')).toHaveText('크레딧 팩 구매 (스타터)');
  await visitorContext.close();

  // --- the sharer's My Page: 750 bonus credits, the link's results, the reward row on top
  await a.reload();
  await expect(a.getByTestId('mypage-credits-bonus')).toHaveText('750');
  await expect(a.getByTestId('mypage-credits-total')).toHaveText('1,050');
  await expect.poll(() => headerBalance(a)).toBe(1050);
  await expect(a.getByTestId('mypage-affiliate-clicks')).toHaveText('1');
  await expect(a.getByTestId('mypage-affiliate-signups')).toHaveText('1');
  await expect(a.getByTestId('mypage-affiliate-paid-orders')).toHaveText('1');
  await expect(a.getByTestId('mypage-affiliate-reward')).toHaveText('750');
  await expect(rows).toHaveCount(2);
  const reward = rows.first();
  await expect(reward).toHaveAttribute('data-label', 'affiliateReward');
  await expect(reward).toHaveAttribute('data-bucket', 'bonus');
  await expect(reward.getByTestId('mypage-ledger-label')).toHaveText('공유 링크 보상 (구매 크레딧의 절반)');
  await expect(reward.getByTestId('mypage-ledger-delta')).toHaveText('+750');
  await expect(reward.getByTestId('mypage-ledger-balance')).toContainText('1,050');

  // --- ?payment=success shows the banner; ?refresh=<ts> refreshes and is removed from the address
  await a.goto('/mypage?payment=success');
  await expect(a.getByTestId('mypage-payment-success')).toContainText('결제가 완료되었습니다.');
  await a.getByTestId('mypage-payment-dismiss').click();
  await expect(a).toHaveURL(/\/mypage$/);
  await expect(a.getByTestId('mypage-payment-success')).toHaveCount(0);
  await a.goto(`/mypage?refresh=${Date.now()}`);
  await expect(a).toHaveURL(/\/mypage$/);

  // --- subscribe (basic, 4500 credits), then cancel and resume from My Page
  await gotoSignedIn(a, '/pricing');
  await a.getByTestId('plan-button-basic').click();
  await payOnSandbox(a);
  await expectPaymentSuccess(a, '4,500');
  await a.goto('/mypage');
  await expect(a.getByTestId('mypage-plan')).toHaveText('베이직');
  await expect(a.getByTestId('mypage-credits-subscription')).toHaveText('4,500');
  await expect(a.getByTestId('mypage-credits-total')).toHaveText('5,550');
  await expect(a.getByTestId('subscription-state')).toHaveText('이용 중');
  await expect(rows.first()).toHaveAttribute('data-label', 'planInitial');
  await expect(rows.first().getByTestId('mypage-ledger-label')).toHaveText('베이직 구독 시작');
  await expect(rows.first().getByTestId('mypage-ledger-balance')).toContainText('5,550');
  await a.getByTestId('subscription-cancel').click();
  await expect(a.getByTestId('subscription-cancel-dialog')).toBeVisible();
  await viewShot(a, 'mypage-cancel-dialog-ko-1440');
  await a.getByTestId('subscription-cancel-confirm').click();
  await expect(a.getByTestId('subscription-state')).toHaveText('취소 예약됨');
  await expect(a.getByTestId('subscription-date')).toContainText('20');
  await expect(a.getByTestId('subscription-cancel')).toHaveCount(0);
  await shot(a, 'mypage-cancel-scheduled-ko-1440');
  await a.getByTestId('subscription-resume').click();
  await expect(a.getByTestId('subscription-state')).toHaveText('이용 중');
  await expect(a.getByTestId('subscription-cancel')).toBeVisible();

  // --- the share popup on the retouch workspace
  await a.goto('/upscale');
  await a.getByTestId('upscale-share').click();
  const dialog = a.getByTestId('upscale-share-dialog');
  await expect(dialog).toContainText('구매한 크레딧의 절반을 보너스 크레딧으로');
  await expect(a.getByTestId('upscale-share-link')).toHaveValue(link);
  await a.getByTestId('upscale-share-copy').click();
  await expect(a.getByText('링크가 복사되었습니다.')).toBeVisible();
  await viewShot(a, 'mypage-share-popup-ko-1440');
  await a.keyboard.press('Escape');

  // --- screens: Korean first (English then sticks), 390 and 1440 px
  for (const lang of ['ko', 'en'] as const) {
    for (const width of [390, 1440]) {
      await a.setViewportSize({ width, height: 900 });
      await a.goto(lang === 'en' ? '/en/mypage' : '/mypage');
      await expect(a.locator('html')).toHaveAttribute('lang', lang);
      await expect(a.getByTestId('mypage-ledger-row')).toHaveCount(3);
      await expect(a.getByTestId('mypage-affiliate-reward')).toHaveText('750');
      await expect(a.getByTestId('subscription-state')).toHaveText(lang === 'en' ? 'Active' : '이용 중');
      await shot(a, `mypage-${lang}-${width}`);
      await expectEmptyTabsLinkTheirTools(a, lang);
      await a.getByTestId('mypage-history').screenshot({ path: path.join(SHOTS, `mypage-face-edit-tab-empty-${lang}-${width}.png`), animations: 'disabled' });
      await a.goto(lang === 'en' ? '/en/upscale' : '/upscale');
      await a.getByTestId('upscale-share').click();
      await expect(a.getByTestId('upscale-share-link')).toHaveValue(link);
      await viewShot(a, `mypage-share-popup-${lang}-${width}`);
      await a.keyboard.press('Escape');
    }
  }
  await expect(a.getByTestId('upscale-share-dialog')).toHaveCount(0);
  await a.goto('/en/mypage');
  await expect(a.getByTestId('mypage-ledger-row').first().getByTestId('mypage-ledger-label')).toHaveText('Basic subscription started');
  await expect(a.getByTestId('mypage-ledger-row').nth(1).getByTestId('mypage-ledger-label')).toHaveText('Share-link reward (half of the credits purchased)');

  // --- Logout goes to /login
  await a.getByTestId('mypage-logout').click();
  await expect(a).toHaveURL(/\/en\/login$/);
  await expect(a.getByTestId('header-balance')).toHaveCount(0);
  await sharer.context.close();
});

test('the Retouch tab lists a completed retouch (viewer, download, broken image → placeholder, failed history → empty) and the credit history shows its spend', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, uniqueEmail('mypage-history'), '히스토리');
  await page.goto('/upscale');
  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama_910x1137.jpg'));
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  await expect(page.getByTestId('upscale-generate')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('upscale-generate').click();
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed', { timeout: 150_000 });
  const jobId = (await page.getByTestId('upscale-stage').getAttribute('data-job-id')) ?? '';
  expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

  await page.goto('/mypage');
  const items = page.getByTestId('mypage-history-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-source', 'upscale');
  await expect(items.first().locator('time')).toContainText('KST');
  await expect(page.getByTestId('mypage-history-retouch-more')).toHaveCount(0);

  // the credit history: the spend with its job, the balance after it
  const spend = page.getByTestId('mypage-ledger-row').first();
  await expect(spend).toHaveAttribute('data-label', 'spend');
  await expect(spend.getByTestId('mypage-ledger-label')).toHaveText('리터치 사용');
  await expect(spend).toContainText(`작업 ${jobId.slice(0, 8)} · 완료`);
  await expect(spend.getByTestId('mypage-ledger-delta')).toHaveText('−80');
  await expect(spend.getByTestId('mypage-ledger-balance')).toContainText('220');

  // fullscreen before/after viewer with its download
  await items.first().getByTestId('mypage-history-open').click();
  const viewer = page.getByTestId('mypage-history-fullscreen-dialog');
  await expect(viewer).toBeVisible();
  await expect(page.getByTestId('mypage-history-fullscreen-slider-handle')).toBeVisible();
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('mypage-history-viewer-download').click();
  const file = await (await downloadPromise).path();
  const meta = await sharp(fs.readFileSync(file)).metadata();
  expect([meta.width, meta.height]).toEqual([910, 1137]);
  await viewShot(page, 'mypage-viewer-ko-1440');
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/mypage');
    await expect(items.first().locator('img')).toBeVisible();
    await expect.poll(() => items.first().locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot(page, `mypage-history-ko-${width}`);
  }

  // a thumbnail that does not load shows the placeholder
  const src = (await items.first().locator('img').getAttribute('src')) ?? '';
  const thumbPath = new URL(src, 'http://x').pathname;
  await page.route((url) => url.pathname === thumbPath, (route) => route.abort());
  await page.reload();
  await expect(items.first().getByTestId('mypage-history-broken')).toBeVisible();
  await expect(items.first().getByTestId('mypage-history-open')).toBeDisabled();
  await page.unrouteAll();

  // a failing history call gives an empty list (001 §8)
  await page.route('**/api/image/history/**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"code":"INTERNAL","error":"x","message":"x"}' }));
  await page.reload();
  await expect(page.getByTestId('mypage-history-retouch-empty')).toBeVisible();
  await expect(items).toHaveCount(0);
  await page.unrouteAll();

  // a copy the browser refuses says so (001 §8) in the page's language
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
    document.execCommand = () => false;
  });
  await page.goto('/mypage');
  await expect(page.getByTestId('mypage-affiliate-link')).toHaveValue(/\?aff=/);
  await page.getByTestId('mypage-affiliate-copy').click();
  await expect(page.getByText('링크 복사에 실패했습니다.')).toBeVisible();
  await page.goto('/en/upscale');
  await page.getByTestId('upscale-share').click();
  await page.getByTestId('upscale-share-copy').click();
  await expect(page.getByText('Failed to copy link.')).toBeVisible();
  await context.close();
});

test('delete from history (issue 28, point 12): one result on the retouch workspace, one and a selection on My Page; the files go, nothing is refunded', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndLogInByApi(page, uniqueEmail('delete'), PASSWORD);
  const origin = new URL(String(baseURL)).origin;
  // Three small retouches made through the API (the page's own calls), to their end.
  const photo = await sharp({ create: { width: 360, height: 300, channels: 3, background: '#c9a48f' } }).jpeg().toBuffer();
  const jobs: { jobId: string; imageId: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const up = await page.request.post('/api/image/upload-s3', { multipart: { image: { name: `p${i}.jpg`, mimeType: 'image/jpeg', buffer: photo } }, headers: { origin } });
    expect(up.status(), await up.text()).toBe(200);
    const run = await page.request.post('/api/runpod-upscale', { data: { input: { image: (await up.json()).imageUrl, scale_factor: 1 } }, headers: { origin } });
    expect(run.status(), await run.text()).toBe(200);
    jobs.push(await run.json());
  }
  for (const j of jobs) {
    await expect.poll(async () => (await (await page.request.get(`/api/image/status/${j.jobId}`)).json()).status, { timeout: 150_000 }).toBe('completed');
  }
  const statusOf = async (jobId: string) => (await page.request.get(`/api/image/status/${jobId}`)).status();
  await page.goto('/upscale');
  const balance = await headerBalance(page);
  expect(balance).toBe(300 - 3 * 80);

  // --- the workspace: delete the newest, after a confirmation
  const items = page.getByTestId('upscale-history').getByTestId('history-item');
  await expect(items).toHaveCount(3);
  const newest = jobs[2]!;
  await expect(items.first()).toHaveAttribute('data-history-id', String(newest.imageId));
  await page.getByTestId('upscale-history-delete').first().click();
  const dialog = page.getByTestId('upscale-history-delete-dialog');
  await expect(dialog).toContainText('이 항목을 삭제할까요?');
  await expect(dialog).toContainText('크레딧은 환불되지 않습니다');
  await page.getByTestId('upscale-history-delete-dialog').screenshot({ path: path.join(SHOTS, 'history-delete-dialog-ko-1440.png') });
  await page.getByTestId('upscale-history-delete-confirm').click();
  await expect(dialog).toHaveCount(0);
  await expect(items).toHaveCount(2);
  await expect(page.getByText('삭제되었습니다.')).toBeVisible();
  expect(await statusOf(newest.jobId)).toBe(404);
  await page.reload();
  await expect(items).toHaveCount(2);

  // --- My Page, in English on a phone: one card, then a selection
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/en/mypage');
  const cards = page.getByTestId('mypage-history-retouch').getByTestId('mypage-history-item');
  await expect(cards).toHaveCount(2);
  await cards.first().getByTestId('mypage-history-delete').click();
  await expect(page.getByTestId('mypage-history-delete-dialog')).toContainText('Credits spent are not refunded.');
  await viewShot(page, 'mypage-history-delete-dialog-en-390');
  await page.getByTestId('mypage-history-delete-cancel').click();
  await expect(cards).toHaveCount(2);
  await page.getByTestId('mypage-history-retouch-select').click();
  await expect(page.getByTestId('mypage-history-retouch-delete-selected')).toBeDisabled();
  await cards.nth(0).getByTestId('mypage-history-check').check();
  await cards.nth(1).getByTestId('mypage-history-check').check();
  await expect(page.getByTestId('mypage-history-retouch-delete-selected')).toHaveText('Delete selected (2)');
  await shot(page, 'mypage-history-select-en-390', { fullPage: false });
  await page.getByTestId('mypage-history-retouch-delete-selected').click();
  await expect(page.getByTestId('mypage-history-delete-dialog')).toContainText('Delete 2 items?');
  await page.getByTestId('mypage-history-delete-confirm').click();
  await expect(page.getByTestId('mypage-history-retouch-empty')).toBeVisible();
  await expect(page.getByText('2 items deleted.')).toBeVisible();
  for (const j of jobs) expect(await statusOf(j.jobId)).toBe(404);
  // Nothing refunded: the balance is what the three jobs left.
  await expect.poll(() => headerBalance(page)).toBe(balance);

  // The same controls in the other language and width (no items left: the workspace's empty list).
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/en/upscale');
  await expect(page.getByTestId('upscale-history').getByTestId('history-item')).toHaveCount(0);
});
