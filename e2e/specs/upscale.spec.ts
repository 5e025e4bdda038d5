import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES, SHOTS, headerBalance, logIn, shot, signUp, signUpAndLogInByApi, uniqueEmail } from './helpers';

test('a signed-out visitor opening /upscale is sent to /login', async ({ page }) => {
  await page.goto('/upscale');
  await expect(page).toHaveURL(/\/login$/);
});

test('sign up, retouch obama_910x1137.jpg, see the comparison and history, download, and pay the shown cost', async ({ page }) => {
  const email = uniqueEmail('upscale');
  await signUp(page, email, 'password-1234');
  await logIn(page, email, 'password-1234');
  await page.goto('/upscale');
  await expect(page.getByTestId('upscale-page')).toBeVisible();
  // before any upload: the sample result with its badges
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'sample');
  const before = await headerBalance(page);
  expect(before).toBe(300);

  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama_910x1137.jpg'));
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  await expect(page.getByTestId('upload-dimensions')).toContainText('910');

  // options: male / western → basic only; exclude lips; studio filter
  await page.getByTestId('upscale-gender').click();
  await page.getByRole('option', { name: /남성|Male/ }).click();
  await page.getByTestId('upscale-ethnicity').click();
  await page.getByRole('option', { name: /서양|Western/ }).click();
  await page.getByTestId('upscale-exclude-lips').click();
  await page.getByTestId('upscale-filter-studio').click();

  const generate = page.getByTestId('upscale-generate');
  await expect(generate).toBeEnabled({ timeout: 30_000 });
  const cost = Number(((await page.getByTestId('upscale-cost').textContent()) ?? '').replace(/[^0-9]/g, ''));
  expect(cost).toBe(80); // 910 + 1137 < 2500 at scale 1
  await generate.click();
  await expect(page.getByTestId('upscale-processing')).toBeVisible();
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed', { timeout: 150_000 });
  await expect(page.getByTestId('history-item').first()).toBeVisible();
  await expect.poll(() => headerBalance(page), { timeout: 60_000 }).toBe(before - cost);
  await shot(page, 'upscale-result-ko-1440');

  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('upscale-download').click();
  const download = await downloadPromise;
  const file = await download.path();
  const meta = await sharp(fs.readFileSync(file)).metadata();
  expect([meta.width, meta.height]).toEqual([910, 1137]);
  expect(meta.format).toBe('jpeg');

  // switching language keeps the page (same route under /en): the result stays on screen
  await page.getByTestId('lang-en').click();
  await expect(page).toHaveURL(/\/en\/upscale$/);
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('upscale-download')).toHaveText(/Download/);
  // A studio-filter result of a Western man is not dewy skin: no filter label (001 §9).
  await expect(page.getByTestId('upscale-result-label')).toHaveCount(0);

  // after a reload the workspace shows the last result, its photo and the options it was made with
  await page.reload();
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('upscale-gender')).toHaveText(/^Male/);
  await expect(page.getByTestId('upscale-ethnicity')).toHaveText(/^Western/);
  await expect(page.getByTestId('upscale-exclude-lips')).toHaveAttribute('data-state', 'checked');
  await expect(page.getByTestId('upscale-filter-studio')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('upload-dimensions')).toContainText('910');
  await expect(page.locator('[data-testid="history-item"].is-selected')).toHaveCount(1);
});

test('upscale workspace screens at 390 and 1440 px in both languages', async ({ browser }) => {
  const email = uniqueEmail('screens');
  const setup = await browser.newPage();
  await signUp(setup, email, 'password-1234');
  await setup.close();
  for (const width of [390, 1440]) {
    for (const lang of ['ko', 'en'] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
      const page = await context.newPage();
      await page.goto(lang === 'ko' ? '/login' : '/en/login');
      await logIn(page, email, 'password-1234');
      await page.goto(lang === 'ko' ? '/upscale' : '/en/upscale');
      await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', /sample|completed/);
      // (Not 'networkidle': the job event stream is a request that never ends.)
      await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
      await shot(page, `upscale-${lang}-${width}`);
      if (width === 390) {
        await expect(page.getByTestId('upscale-generate-bar')).toBeVisible();
      }
      await context.close();
    }
  }
});

test('the retouch history lists every item, not only the first 100: the next page loads as the list is scrolled to its end (001 §7); a dewy-skin result carries its filter label (001 §9)', async ({ page }) => {
  // The history answers are made here (the newest a dewy-skin result, then 229 failed items, no files)
  // to see the page page through them.
  const TOTAL = 230;
  const reads: { offset: number; limit: number }[] = [];
  const at = new Date('2026-11-01T00:00:00Z').getTime();
  const item = (i: number) => ({
    id: 10_000 - i,
    image_url: null,
    original_image_url: null,
    thumbnail_url: null,
    all_image_urls: [],
    status: 'failed',
    source: 'upscale',
    runpod_job_id: null,
    prompt: null,
    seed: null,
    cost: 80,
    width: null,
    height: null,
    original_width: null,
    original_height: null,
    kling_task_id: null,
    seedream_task_id: null,
    input: null,
    created_at: new Date(at - i * 60_000).toISOString(),
    updated_at: new Date(at - i * 60_000).toISOString(),
    // The newest: made with dewy skin (glow, lora 1) and its preset filter, fair skin at 0.75.
    ...(i === 0
      ? {
          status: 'completed',
          image_url: '/favicon.svg',
          original_image_url: '/favicon.svg',
          thumbnail_url: '/favicon.svg',
          all_image_urls: ['/favicon.svg'],
          runpod_job_id: '00000000-0000-4000-8000-000000000001',
          input: { image: '/favicon.svg', seed: 7, prompt: '', output_format: 'jpg', output_quality: 100, lora_index: 1, numImages: 1, width: 64, height: 64, scale_factor: 1, upper_lip: false, lower_lip: false, filter_strength: 0.75, filter_index: 1, filter_prompt: 'asle filter', left_eyebrow: false, right_eyebrow: false, nose: false, hair: false },
        }
      : {}),
  });
  await page.route(/\/api\/image\/history\/\d+\?/, async (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get('source') !== 'upscale') return route.continue();
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit'));
    reads.push({ offset, limit });
    const end = Math.min(offset + limit, TOTAL);
    const images = Array.from({ length: Math.max(0, end - offset) }, (_, k) => item(offset + k));
    await route.fulfill({ json: { images, pagination: { hasMore: end < TOTAL, nextOffset: end < TOTAL ? end : null } } });
  });
  await signUpAndLogInByApi(page, uniqueEmail('history230'), 'password-1234');
  await page.goto('/upscale');
  const items = page.getByTestId('upscale-history').getByTestId('history-item');
  await expect(items).toHaveCount(100);
  // The newest result is on the stage with its label, in the page's language.
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('upscale-result-label')).toHaveText('뽀용 필터 0.75');
  await expect(page.getByTestId('upscale-filter-ppoyong')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('upscale-stage').screenshot({ path: path.join(SHOTS, 'upscale-dewy-label-ko-1440.png') });
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('upscale-result-label')).toHaveText('Fair-skin filter 0.75');
  await page.getByTestId('lang-kr').click();
  await expect(page.getByTestId('upscale-result-label')).toHaveText('뽀용 필터 0.75');
  expect(reads).toEqual([{ offset: 0, limit: 100 }]);
  // Scrolled to the end, the list reads on by itself until every item is there; then no "more" is offered.
  for (const count of [200, 230]) {
    await items.last().scrollIntoViewIfNeeded();
    await expect(items).toHaveCount(count);
  }
  await expect(page.getByTestId('upscale-history-more')).toHaveCount(0);
  expect(reads).toEqual([{ offset: 0, limit: 100 }, { offset: 100, limit: 100 }, { offset: 200, limit: 100 }]);
  // Every item once, newest first.
  const ids = await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-history-id'))));
  expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => 10_000 - i));
});
