import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { historyImage } from '../../apps/web/src/shared/tool-job/testing/history-image';
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
    ...historyImage({ id: 10_000 - i, status: 'failed', source: 'upscale' }),
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

test('the full-screen comparison zooms from fit to 400 % with both images locked together: wheel about the cursor, pinch, keys, buttons, 1:1, drag to pan; ko and en at 390 and 1440 px (issue 28, point 11)', async ({ page }) => {
  // Two completed results made here (no retouch job): an upscale's 1200×1500 result of a 600×750
  // original, drawn as SVG with fine detail, and an older one to open afterwards.
  const svg = (w: number, h: number, a: string, b: string, label: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 120 150">` +
    `<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="${a}"/><rect width="5" height="5" fill="${b}"/><rect x="5" y="5" width="5" height="5" fill="${b}"/></pattern></defs>` +
    `<rect width="120" height="150" fill="url(#p)"/><circle cx="60" cy="70" r="38" fill="none" stroke="#fff" stroke-width="3"/><circle cx="60" cy="70" r="4" fill="#e11d48"/>` +
    `<text x="60" y="140" font-size="14" font-family="sans-serif" text-anchor="middle" fill="#fff">${label}</text></svg>`;
  const files: Record<string, string> = {
    'after.svg': svg(1200, 1500, '#0f766e', '#5eead4', 'AFTER'),
    'before.svg': svg(600, 750, '#475569', '#cbd5e1', 'BEFORE'),
    'older.svg': svg(800, 1000, '#7c2d12', '#fdba74', 'OLDER'),
  };
  await page.route(/\/e2e-zoom\/\w+\.svg$/, (route) => route.fulfill({ contentType: 'image/svg+xml', body: files[new URL(route.request().url()).pathname.split('/').pop() ?? ''] ?? '' }));
  const at = new Date('2026-11-01T00:00:00Z').getTime();
  const item = (i: number, image: string, original: string) => ({
    ...historyImage({ id: 20_000 - i, status: 'completed', source: 'upscale', image_url: image, original_image_url: original, thumbnail_url: image, all_image_urls: [image] }),
    runpod_job_id: `00000000-0000-4000-8000-00000000000${i + 1}`,
    seed: 7,
    width: 1200,
    height: 1500,
    original_width: 600,
    original_height: 750,
    input: { image: original, seed: 7, prompt: '', output_format: 'jpg', output_quality: 100, lora_index: 0, numImages: 1, width: 600, height: 750, scale_factor: 2, upper_lip: false, lower_lip: false, filter_strength: 0, filter_index: 0, filter_prompt: '', left_eyebrow: false, right_eyebrow: false, nose: false, hair: false },
    created_at: new Date(at - i * 60_000).toISOString(),
    updated_at: new Date(at - i * 60_000).toISOString(),
  });
  await page.route(/\/api\/image\/history\/\d+\?/, async (route) => {
    if (new URL(route.request().url()).searchParams.get('source') !== 'upscale') return route.continue();
    const images = [item(0, '/e2e-zoom/after.svg', '/e2e-zoom/before.svg'), item(1, '/e2e-zoom/older.svg', '/e2e-zoom/before.svg')];
    await route.fulfill({ json: { images, pagination: { hasMore: false, nextOffset: null } } });
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndLogInByApi(page, uniqueEmail('zoom'), 'password-1234', { landing: '/upscale' });
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed');

  const dialog = page.getByTestId('upscale-fullscreen-dialog');
  const surface = page.getByTestId('upscale-zoom');
  const handle = page.getByTestId('upscale-fullscreen-slider-handle');
  const zoomIn = page.getByTestId('upscale-zoom-in');
  const zoom = async () => Number(await surface.getAttribute('data-zoom'));
  /**
   * Both images (after, then before): inline transform, on-screen box, the before image's clip; and the
   * frame's box. Read once the dialog's animations have ended (its opening pop moves the frame; under
   * reduced motion the app's stylesheet gives every property a 0.01 ms transition, so a new transform is
   * the drawn one only once that transition, started on a later frame, has run).
   */
  const state = () =>
    surface.evaluate(async (el) => {
      const dialogBox = el.closest('[role="dialog"]') ?? el;
      await Promise.all(dialogBox.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => null)));
      const box = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      };
      const img = (side: string) => el.querySelector<HTMLImageElement>(`img[data-side="${side}"]`)!;
      const after = img('right');
      const before = img('left');
      return {
        frame: box(el),
        after: { transform: after.style.transform, box: box(after), natural: { w: after.naturalWidth, h: after.naturalHeight } },
        before: { transform: before.style.transform, box: box(before), clip: before.style.clipPath },
      };
    });
  type State = Awaited<ReturnType<typeof state>>;
  /** Both sides locked: the same transform and the same box on screen. */
  const expectLocked = (s: State) => {
    expect(s.before.transform).toBe(s.after.transform);
    for (const k of ['x', 'y', 'w', 'h'] as const) expect(Math.abs(s.before.box[k] - s.after.box[k]), k).toBeLessThan(0.5);
  };
  /** No image edge inside the frame. */
  const expectCovers = (s: State) => {
    expect(s.after.box.x).toBeLessThanOrEqual(s.frame.x + 0.5);
    expect(s.after.box.y).toBeLessThanOrEqual(s.frame.y + 0.5);
    expect(s.after.box.x + s.after.box.w).toBeGreaterThanOrEqual(s.frame.x + s.frame.w - 0.5);
    expect(s.after.box.y + s.after.box.h).toBeGreaterThanOrEqual(s.frame.y + s.frame.h - 0.5);
  };
  const cdp = await page.context().newCDPSession(page);

  for (const [lang, width] of [
    ['ko', 1440],
    ['en', 1440],
    ['en', 390],
    ['ko', 390],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.getByTestId(lang === 'ko' ? 'lang-kr' : 'lang-en').click();
    await expect(page).toHaveURL(lang === 'ko' ? /\/upscale$/ : /\/en\/upscale$/);
    await page.getByTestId('upscale-fullscreen').click();
    await expect(dialog).toBeVisible();
    await expect(handle).toBeVisible(); // shown once both images have loaded
    await expect(surface).toHaveAttribute('data-zoom', '1');
    await expect(page.getByTestId('upscale-zoom-level')).toHaveText('100%');
    await expect(zoomIn).toHaveAccessibleName(lang === 'ko' ? '확대' : 'Zoom in');
    await expect(page.getByTestId('upscale-zoom-out')).toHaveAccessibleName(lang === 'ko' ? '축소' : 'Zoom out');
    await expect(page.getByTestId('upscale-zoom-reset')).toHaveAccessibleName(lang === 'ko' ? '화면에 맞춤' : 'Fit to screen');
    await expect(page.getByTestId('upscale-zoom-1to1')).toHaveAccessibleName(lang === 'ko' ? '실제 픽셀 크기로 보기 (1:1)' : 'Actual pixels (1:1)');
    const fit = await state();
    expectLocked(fit);
    expect(fit.after.natural).toEqual({ w: 1200, h: 1500 });

    // The wheel zooms in about the cursor: the image point under it stays under it, on both sides.
    const cursor = { x: fit.frame.x + fit.frame.w * 0.35, y: fit.frame.y + fit.frame.h * 0.4 };
    await page.mouse.move(cursor.x, cursor.y);
    await page.mouse.wheel(0, -300);
    await expect.poll(zoom).toBeGreaterThan(1);
    const wheeled = await state();
    expectLocked(wheeled);
    expectCovers(wheeled);
    expect(wheeled.after.transform).toMatch(/scale\(/);
    expect((cursor.x - wheeled.after.box.x) / wheeled.after.box.w).toBeCloseTo(0.35, 2);
    expect((cursor.y - wheeled.after.box.y) / wheeled.after.box.h).toBeCloseTo(0.4, 2);
    expect(wheeled.after.box.w / fit.frame.w).toBeCloseTo(await zoom(), 2);
    await expect(page.getByTestId('upscale-zoom-level')).toHaveText(`${Math.round((await zoom()) * 100)}%`);

    // Keys: 0 back to fit, + in, arrows pan (the zoom stays), within the frame.
    await page.keyboard.press('0');
    await expect(surface).toHaveAttribute('data-zoom', '1');
    await page.keyboard.press('+');
    await expect(surface).toHaveAttribute('data-zoom', '1.25');
    await page.keyboard.press('=');
    await expect(surface).toHaveAttribute('data-zoom', '1.563');
    const centred = await state();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await state()).after.box.x).toBeLessThan(centred.after.box.x - fit.frame.w * 0.05);
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await state()).after.box.y).toBeLessThan(centred.after.box.y - fit.frame.h * 0.05);
    await expect(surface).toHaveAttribute('data-zoom', '1.563');
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
    const panned = await state();
    expectLocked(panned);
    expectCovers(panned);
    // at the right edge: the image's right edge is the frame's
    expect(panned.after.box.x + panned.after.box.w).toBeCloseTo(panned.frame.x + panned.frame.w, 0);
    await page.keyboard.press('-');
    await expect(surface).toHaveAttribute('data-zoom', '1.25');

    // Never past 4: keys, the wheel and the button stop there.
    for (let i = 0; i < 10; i++) await page.keyboard.press('+');
    await expect(surface).toHaveAttribute('data-zoom', '4');
    await expect(zoomIn).toHaveAttribute('aria-disabled', 'true');
    await page.mouse.move(cursor.x, cursor.y);
    await page.mouse.wheel(0, -1000);
    await page.mouse.wheel(0, -1000);
    await page.getByTestId('upscale-zoom-out').click();
    await expect(surface).toHaveAttribute('data-zoom', '3.2');
    await zoomIn.click();
    await zoomIn.click({ force: true });
    await expect(surface).toHaveAttribute('data-zoom', '4');
    await expect(page.getByTestId('upscale-zoom-level')).toHaveText('400%');
    expectCovers(await state());
    await page.getByTestId('upscale-zoom-reset').click();
    await expect(surface).toHaveAttribute('data-zoom', '1');
    await expect(page.getByTestId('upscale-zoom-reset')).toHaveAttribute('aria-disabled', 'true');

    // 1:1: one pixel of the 1200×1500 result per CSS pixel (the frame is narrower than 1200 / 4).
    await page.getByTestId('upscale-zoom-1to1').click();
    const expected = Math.min(4, Math.max(1, Math.min(1200 / fit.frame.w, 1500 / fit.frame.h)));
    expect(expected).toBeGreaterThan(1);
    expect(expected).toBeLessThan(4);
    await expect.poll(zoom).toBeCloseTo(expected, 2);
    const actual = await state();
    expectLocked(actual);
    expect(actual.after.box.w).toBeCloseTo(1200, 0);
    expect(actual.after.box.h).toBeCloseTo(1500, 0);

    // A drag off the handle pans (the divider stays); a drag of the handle moves the divider (the view stays).
    const divider = await handle.getAttribute('aria-valuenow');
    const from = { x: actual.frame.x + actual.frame.w * 0.25, y: actual.frame.y + actual.frame.h * 0.3 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 30, from.y + 20, { steps: 3 });
    await page.mouse.move(from.x + 60, from.y + 40, { steps: 3 });
    await page.mouse.up();
    const dragged = await state();
    expect(dragged.after.box.x - actual.after.box.x).toBeCloseTo(60, 0);
    expect(dragged.after.box.y - actual.after.box.y).toBeCloseTo(40, 0);
    expectLocked(dragged);
    await expect(handle).toHaveAttribute('aria-valuenow', divider ?? '');
    const knob = (await handle.boundingBox())!;
    await page.mouse.move(knob.x + knob.width / 2, knob.y + knob.height / 2);
    await page.mouse.down();
    await page.mouse.move(knob.x + knob.width / 2 - actual.frame.w * 0.2, knob.y + knob.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBeLessThan(Number(divider) - 10);
    const split = await state();
    expect(split.after.box).toEqual(dragged.after.box);
    // The before image is cut where the divider stands on screen: both sides show the same pixels there.
    const position = Number(await handle.getAttribute('aria-valuenow')) / 100;
    const inset = Number(/inset\(0(?:px)? ([\d.]+)%/.exec(split.before.clip)?.[1]);
    const cutAt = split.before.box.x + (1 - inset / 100) * split.before.box.w;
    expect(Math.abs(cutAt - (split.frame.x + position * split.frame.w))).toBeLessThan(split.frame.w * 0.01);
    await shot(page, `upscale-zoom-${lang}-${width}`, { fullPage: false });

    // Two fingers (touch, through the DevTools protocol): apart zooms in about them, together zooms out.
    await page.getByTestId('upscale-zoom-reset').click();
    const c = { x: fit.frame.x + fit.frame.w * 0.5, y: fit.frame.y + fit.frame.h * 0.5 };
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', d: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [
          { x: c.x - d, y: c.y, id: 1 },
          { x: c.x + d, y: c.y, id: 2 },
        ],
      });
    await touch('touchStart', 30);
    for (const d of [45, 60, 75, 90]) await touch('touchMove', d);
    await touch('touchEnd', 90);
    await expect.poll(zoom).toBeCloseTo(3, 1);
    const pinched = await state();
    expectLocked(pinched);
    expect(pinched.after.box.x + pinched.after.box.w / 2).toBeCloseTo(c.x, 0);
    await touch('touchStart', 90);
    for (const d of [60, 30]) await touch('touchMove', d);
    await touch('touchEnd', 30);
    await expect(surface).toHaveAttribute('data-zoom', '1');

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }

  // Opened again, on another result: at fit.
  await page.getByTestId('upscale-history').getByTestId('history-item').nth(1).click();
  await page.getByTestId('upscale-fullscreen').click();
  await expect(dialog).toBeVisible();
  await expect(surface.locator('img[data-side="right"]')).toHaveAttribute('src', '/e2e-zoom/older.svg');
  await expect(surface).toHaveAttribute('data-zoom', '1');
  await page.keyboard.press('+');
  await expect(surface).toHaveAttribute('data-zoom', '1.25');
  await page.keyboard.press('Escape');
  await page.getByTestId('upscale-fullscreen').click();
  await expect(surface).toHaveAttribute('data-zoom', '1');
});
