import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FIXTURES, headerBalance, shot, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * Image edit (002 §2–§9, issue 16) against the fake ModelArk server that playwright.config.ts starts
 * before the app (SEEDREAM_BASE_URL): two references, a mask painted on image 1, two results.
 */
const REF_1 = path.join(FIXTURES, 'obama3_1434x2333.jpg');
const REF_2 = path.join(FIXTURES, 'obama_910x1137.jpg');
const TOO_SMALL = path.join(FIXTURES, 'rose_leslie_577x880.jpg');

/** Drag in the open mask editor between two image points (reads the editor's view transform). */
async function dragInEditor(page: Page, from: [number, number], to: [number, number]) {
  const viewport = page.getByTestId('mask-editor-viewport');
  const box = await viewport.boundingBox();
  if (!box) throw new Error('mask editor viewport not visible');
  const [scale, vx, vy] = await Promise.all(['data-scale', 'data-x', 'data-y'].map(async (a) => Number(await viewport.getAttribute(a))));
  const at = ([x, y]: [number, number]) => ({ x: box.x + (vx as number) + x * (scale as number), y: box.y + (vy as number) + y * (scale as number) });
  const a = at(from);
  const b = at(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

const top = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));
const noToasts = (page: Page) => expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 60_000 });

test('a signed-out visitor opening /image-edit is sent to /login', async ({ page }) => {
  await page.goto('/image-edit');
  await expect(page).toHaveURL(/\/login$/);
});

test('edit with two references and a mask: uploads, runs with Ctrl+Enter, shows two results, charges 30, lists the history', async ({ page }) => {
  const email = uniqueEmail('imageedit');
  await signUpAndLogInByApi(page, email, 'password-1234');
  const firstPage = page.waitForRequest((r) => /\/api\/seedream\/history\?grouped=1&status=completed&limit=9&offset=0$/.test(r.url()));
  await page.goto('/image-edit');
  await firstPage;
  await expect(page.getByTestId('image-edit-page')).toBeVisible();
  await expect(page.getByTestId('image-edit-not-configured')).toHaveCount(0);
  await expect(page.getByTestId('image-edit-run')).toBeDisabled();
  expect(await headerBalance(page)).toBe(300);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await top(page);
  await shot(page, 'image-edit-empty-ko-1440');

  // 002 §5: jpg/png only; at least 921600 px (the message names the size)
  await page.getByTestId('image-edit-file-input').setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.getByText('jpg, png만 업로드 가능합니다.')).toBeVisible();
  await page.getByTestId('image-edit-file-input').setInputFiles(TOO_SMALL);
  await expect(page.getByText('현재 크기: 577x880')).toBeVisible();
  await noToasts(page);

  // two files at once fill tiles 1 and 2 (uploaded by presign → PUT → confirm as seedream-ref)
  const presigns: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/image/presign-upload')) presigns.push(r.postDataJSON().kind as string);
  });
  await page.getByTestId('image-edit-file-input').setInputFiles([REF_1, REF_2]);
  for (const i of [0, 1]) await expect(page.getByTestId(`image-edit-tile-${i}`).locator('img').first()).toBeVisible();
  await expect(page.getByTestId('image-edit-grid').getByText('업로드 중…')).toHaveCount(0, { timeout: 30_000 });
  expect(presigns).toEqual(['seedream-ref', 'seedream-ref']);

  // the mask on image 1: a rectangle over the jacket
  await page.getByTestId('image-edit-mask-open').click();
  await expect(page.getByTestId('mask-editor-viewport')).toHaveAttribute('data-scale', /\d/);
  await page.getByTestId('mask-tool-rectangle').click();
  await dragInEditor(page, [200, 1700], [1200, 2250]);
  expect(Number(await page.getByTestId('mask-painted').getAttribute('data-painted'))).toBeGreaterThan(0);
  await top(page);
  await shot(page, 'image-edit-mask-editor-ko-1440', { fullPage: false });
  await page.getByTestId('mask-save').click();
  await expect(page.getByTestId('image-edit-mask-status')).toHaveText('마스크 저장됨: 1번 이미지의 칠한 영역만 바뀌고, 결과는 1번 이미지 크기(1434x2333)로 만들어집니다.', { timeout: 30_000 });
  await expect(page.getByTestId('image-edit-mask-overlay')).toBeVisible();

  // Additional Settings: the 1:1 preset, two images; the Run button shows 15 × 2
  await page.getByTestId('image-edit-settings-toggle').click();
  await page.getByTestId('image-edit-preset-1x1').click();
  await expect(page.getByTestId('image-edit-width')).toHaveValue('2048');
  await page.getByTestId('image-edit-num-images').selectOption('2');
  await page.getByTestId('image-edit-seed').fill('4242');
  await page.getByTestId('image-edit-prompt').fill('Change the jacket in image 1 to the colour of the background of image 2');
  await expect(page.getByTestId('image-edit-run')).toContainText('30');
  await noToasts(page);
  await top(page);
  await shot(page, 'image-edit-ready-ko-1440');

  const created = page.waitForResponse((r) => r.url().includes('/api/seedream/generate?async=1') && r.request().method() === 'POST');
  await page.getByTestId('image-edit-prompt').focus();
  await page.keyboard.press('Control+Enter');
  const res = created.then((r) => r.json());
  await expect(page.getByTestId('image-edit-loading')).toBeVisible();
  const body = await res;
  expect(body).toMatchObject({ success: true, status: 'processing', cost: 30, credits: 270 });
  expect(body.seedream_task_id).toMatch(/^seedream-/);
  const sent = (await created).request().postDataJSON();
  expect(sent).toMatchObject({ num_images: 2, max_images: 1, size: '2048x2048', seed: 4242, mask_color: 'blue', async: true });
  expect(sent.images).toHaveLength(2);
  expect(sent.mask).toBeTruthy();

  await expect(page.getByTestId('image-edit-results')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('image-edit-result-0').locator('img')).toBeVisible();
  await expect(page.getByTestId('image-edit-result-1').locator('img')).toBeVisible();
  // a masked edit keeps image 1's frame (decision 023): 1434 × 2333, not the 1:1 preset
  for (const i of [0, 1]) {
    const size = await page.getByTestId(`image-edit-result-${i}`).locator('img').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(size).toEqual([1434, 2333]);
  }
  await expect.poll(() => headerBalance(page)).toBe(270);
  await expect(page.getByTestId('image-edit-history-item')).toHaveCount(1);
  await noToasts(page);
  await top(page);
  await shot(page, 'image-edit-results-ko-1440');

  // the viewer
  await page.getByTestId('image-edit-result-0').locator('button').first().click();
  await expect(page.getByTestId('image-edit-viewer')).toBeVisible();
  await page.keyboard.press('Escape');

  // history search by prompt
  await page.getByTestId('image-edit-history-search').fill('nothing like this');
  await page.getByTestId('image-edit-history-search').press('Enter');
  await expect(page.getByTestId('image-edit-history-empty')).toBeVisible();
  await page.getByTestId('image-edit-history-search').fill('jacket');
  await page.getByTestId('image-edit-history-search').press('Enter');
  await expect(page.getByTestId('image-edit-history-item')).toHaveCount(1);

  // English, and the phone width
  await page.goto('/en/image-edit');
  await expect(page.getByRole('heading', { name: 'Image Edit' })).toBeVisible();
  await expect(page.getByTestId('image-edit-history-item')).toHaveCount(1);
  await page.getByTestId('image-edit-history-item').click();
  await expect(page.getByTestId('image-edit-results')).toBeVisible();
  await top(page);
  await shot(page, 'image-edit-history-en-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await top(page);
  await shot(page, 'image-edit-history-en-390');
  await page.goto('/image-edit');
  await page.getByTestId('image-edit-file-input').setInputFiles([REF_1, REF_2]);
  await expect(page.getByTestId('image-edit-grid').getByText('업로드 중…')).toHaveCount(0, { timeout: 30_000 });
  await page.getByTestId('image-edit-settings-toggle').click();
  await top(page);
  await shot(page, 'image-edit-settings-ko-390');

  // My Page's Image Edit tab lists the result
  await page.setViewportSize({ width: 1440, height: 1000 });
  const tabRead = page.waitForResponse((r) => r.url().includes('/api/seedream/history?grouped=1&status=completed'));
  await page.goto('/mypage');
  await page.getByTestId('mypage-history-tab-imageEdit').click();
  await expect(page.getByTestId('mypage-history-imageEdit')).toBeVisible();
  expect((await tabRead).status()).toBe(200); // 001 §7: the tab reads the image-edit history
  await expect(page.getByTestId('mypage-history-imageEdit').getByTestId('mypage-history-item')).toHaveCount(1);
  await expect(page.getByTestId('mypage-history-imageEdit').getByTestId('mypage-history-item').locator('img')).toBeVisible();
  await top(page);
  await shot(page, 'image-edit-mypage-ko-1440');
});

test('an empty prompt never runs; a vendor error shows the catalogue dialog in English and refunds', async ({ page }) => {
  const email = uniqueEmail('imageedit-err');
  await signUpAndLogInByApi(page, email, 'password-1234');
  await page.goto('/en/image-edit');
  // drag and drop a file onto tile 3
  const bytes = fs.readFileSync(REF_2).toString('base64');
  const dataTransfer = await page.evaluateHandle((b64) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], 'dropped.jpg', { type: 'image/jpeg' }));
    return dt;
  }, bytes);
  await page.getByTestId('image-edit-tile-2').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('image-edit-tile-2').locator('img').first()).toBeVisible();
  await expect(page.getByTestId('image-edit-grid').getByText('Uploading…')).toHaveCount(0, { timeout: 30_000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Please enter a prompt.')).toBeVisible();
  // The fake ModelArk filters this prompt's output as the vendor's content filter would: the job fails
  // on the server and is refunded.
  await page.getByTestId('image-edit-prompt').fill('anything [fake:sensitive]');
  await page.getByTestId('image-edit-run').click();
  await expect(page.getByTestId('image-edit-error-dialog')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('image-edit-error-message')).toHaveText('Sensitive content was detected. Your credits were refunded.');
  await noToasts(page);
  await top(page);
  await shot(page, 'image-edit-error-en-1440', { fullPage: false });
  await page.getByTestId('image-edit-error-ok').click();
  await expect.poll(() => headerBalance(page)).toBe(300);
  await page.getByTestId('image-edit-run').click();
  await expect(page.getByTestId('image-edit-error-dialog')).toBeVisible({ timeout: 60_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await top(page);
  await shot(page, 'image-edit-error-en-390', { fullPage: false });
  await page.getByTestId('image-edit-error-ok').click();

  // Reset empties the tiles and the prompt
  await page.getByTestId('image-edit-reset').click();
  await expect(page.getByTestId('image-edit-tile-2').locator('img')).toHaveCount(0);
  await expect(page.getByTestId('image-edit-prompt')).toHaveValue('');
  await expect(page.getByTestId('image-edit-run')).toBeDisabled();
});
