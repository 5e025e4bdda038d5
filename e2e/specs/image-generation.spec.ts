import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN } from './admin-account';
import { FIXTURES, headerBalance, logIn, shot, signUp, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * Image generation on Kling (issue 16) against the fake Kling API that playwright.config.ts starts
 * (it returns the reference image fitted to the aspect ratio, so a generated "portrait" has a face).
 */
const REFERENCE = path.join(FIXTURES, 'rose_leslie_577x880.jpg');

async function generateWithReference(page: Page, count: number) {
  await page.getByTestId('gen-prompt').fill('studio portrait, soft window light');
  await page.getByTestId('gen-reference-input').setInputFiles(REFERENCE);
  await expect(page.getByTestId('gen-reference-preview')).toBeVisible();
  await page.getByTestId('gen-aspect-3x4').click();
  await page.getByTestId(`gen-count-${count}`).click();
  await expect(page.getByTestId('gen-cost')).toContainText(String(15 * count));
  await page.getByTestId('gen-run').click();
  await expect(page.getByTestId('gen-result')).toHaveCount(count, { timeout: 60_000 });
}

test('a generation with a reference image, then send-to-upscale lands in the retouch workspace with that image and retouches it', async ({ page }) => {
  const email = uniqueEmail('gen');
  await signUpAndLogInByApi(page, email, 'password-1234');
  await page.goto('/image-generation');
  await expect(page.getByTestId('gen-page')).toBeVisible();
  await expect(page.getByTestId('gen-not-configured')).toHaveCount(0);
  // The character slot is marked coming soon.
  await expect(page.getByTestId('gen-character-slot')).toContainText('준비 중');
  const before = await headerBalance(page);

  // Validation on the page: nothing to generate from.
  await page.getByTestId('gen-run').click();
  await expect(page.getByText('프롬프트를 입력하거나 참조 이미지를 업로드해주세요.')).toBeVisible();

  // After a generation the list is refreshed with the spec's refresh page: 25 generations (002 §7/§9).
  const refreshed = page.waitForRequest((r) => {
    const u = new URL(r.url());
    return /\/api\/image\/history\/\d+$/.test(u.pathname) && u.searchParams.get('source') === 'kling' && u.searchParams.get('grouped') === '1' && u.searchParams.get('group_limit') === '25' && u.searchParams.get('group_offset') === '0';
  });
  await generateWithReference(page, 2);
  await refreshed;
  await expect.poll(() => headerBalance(page), { timeout: 60_000 }).toBe(before - 30);
  // The prompt is locked while a reference is set: a click opens the lock popup.
  await page.getByTestId('gen-prompt').click();
  await expect(page.getByTestId('gen-lock-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  // The history holds the generation.
  await expect(page.getByTestId('gen-history-item')).toHaveCount(1, { timeout: 60_000 });
  // Zoom.
  await page.getByTestId('gen-zoom-btn').first().click();
  await expect(page.getByTestId('gen-zoom')).toBeVisible();
  await page.keyboard.press('Escape');

  const generated = await page.getByTestId('gen-result-img').first().getAttribute('src');
  expect(generated).toBeTruthy();
  await page.getByTestId('gen-send-upscale').first().click();
  await expect(page).toHaveURL(/\/upscale$/);
  // The workspace shows the generated image (the fake returns 384×512 for 3:4) and runs a retouch on it.
  await expect(page.getByTestId('upload-dimensions')).toContainText('384', { timeout: 30_000 });
  const generate = page.getByTestId('upscale-generate');
  await expect(generate).toBeEnabled({ timeout: 30_000 });
  const balance = await headerBalance(page);
  await generate.click();
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'completed', { timeout: 150_000 });
  await expect.poll(() => headerBalance(page), { timeout: 60_000 }).toBeLessThan(balance);

  // My Page's Generate tab lists the generation.
  await page.goto('/mypage');
  await page.getByTestId('mypage-history-tab-generate').click();
  await expect(page.getByTestId('mypage-history-generate').getByTestId('mypage-history-item')).toHaveCount(1, { timeout: 60_000 });
  await shot(page, 'mypage-generate-ko-1440');
});

test('image generation screens at 390 and 1440 px in both languages', async ({ browser }) => {
  const email = uniqueEmail('genscreens');
  const setup = await browser.newPage();
  await signUp(setup, email, 'password-1234');
  await setup.close();
  let first = true;
  for (const width of [1440, 390]) {
    for (const lang of ['ko', 'en'] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
      const page = await context.newPage();
      await page.goto(lang === 'ko' ? '/login' : '/en/login');
      await logIn(page, email, 'password-1234');
      await page.goto(lang === 'ko' ? '/image-generation' : '/en/image-generation');
      await expect(page.getByTestId('gen-page')).toBeVisible();
      if (first) {
        await generateWithReference(page, 4);
        first = false;
      } else {
        await expect(page.getByTestId('gen-history-item').first()).toBeVisible({ timeout: 60_000 });
        await page.getByTestId('gen-history-item').first().click();
        await expect(page.getByTestId('gen-result')).toHaveCount(4, { timeout: 60_000 });
      }
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 60_000 });
      await shot(page, `image-generation-${lang}-${width}`);
      // With a reference set, the Edit tab is locked like the prompt (issue 28, point 3).
      if (!(await page.getByTestId('gen-reference-preview').isVisible())) await page.getByTestId('gen-reference-input').setInputFiles(REFERENCE);
      await page.getByTestId('gen-tab-edit').click();
      await expectEditTabLocked(page);
      await shot(page, `image-generation-edit-locked-${lang}-${width}`, { fullPage: false });
      await context.close();
    }
  }
});

test('with Kling not configured (flag off): a customer is sent home, the administrator sees the page saying so and cannot generate', async ({ page }) => {
  // The e2e server has Kling configured; the flag answer is replaced to see the page's "off" state.
  await page.route('**/api/feature/flags', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), imageGenerationEnabled: false } });
  });
  const email = uniqueEmail('genoff');
  await signUpAndLogInByApi(page, email, 'password-1234');
  await page.goto('/en/image-generation');
  await expect(page).toHaveURL(/\/en$/);
  await page.context().clearCookies();
  await logIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/en/image-generation');
  await expect(page.getByTestId('gen-not-configured')).toContainText('not configured');
  await expect(page.getByTestId('gen-run')).toBeDisabled();
  await shot(page, 'image-generation-not-configured-en-1440', { fullPage: false });
});

test('Edit tab: Apply rewrites the prompt (the AI-text calls answered here by stubs), Restore puts it back; a failed credit use cancels; a reference with an empty prompt is described first', async ({ page }) => {
  // /api/ai/* and /api/credit/use belong to the AI-text issue: stubbed with the spec's shapes (002 §7).
  let creditUse: 'ok' | 'fail' = 'fail';
  const rewrites: unknown[] = [];
  await page.route('**/api/ai/rewrite', async (route) => {
    rewrites.push(route.request().postDataJSON());
    await route.fulfill({ json: { success: true, rewrittenPrompt: 'an evening street, warm light', threadId: 'thread-1' } });
  });
  await page.route('**/api/credit/use', (route) => (creditUse === 'ok' ? route.fulfill({ json: { success: true } }) : route.fulfill({ status: 400, json: { success: false, code: 'INSUFFICIENT_CREDITS', error: 'x' } })));
  await page.route('**/api/ai/extract-prompt-from-image', (route) => route.fulfill({ json: { success: true, prompt: 'a woman with long red hair' } }));
  const email = uniqueEmail('genedit');
  await signUpAndLogInByApi(page, email, 'password-1234');
  await page.goto('/en/image-generation');
  await page.getByTestId('gen-prompt').fill('a street');
  await page.getByTestId('gen-tab-edit').click();
  await page.getByTestId('gen-apply').click();
  await expect(page.getByText('The AI prompt is empty.')).toBeVisible();
  await page.getByTestId('gen-instruction').fill('make it evening');
  await page.getByTestId('gen-apply').click();
  await expect(page.getByText('The credits could not be deducted, so the apply was cancelled.')).toBeVisible();
  await page.getByTestId('gen-tab-input').click();
  await expect(page.getByTestId('gen-prompt')).toHaveValue('a street');
  creditUse = 'ok';
  await page.getByTestId('gen-tab-edit').click();
  await page.getByTestId('gen-apply').click();
  await expect(page.getByTestId('gen-prompt')).toHaveValue('an evening street, warm light');
  expect(rewrites.at(-1)).toEqual({ userPrompt: 'make it evening', currentPrompt: 'a street', threadId: null });
  await page.getByTestId('gen-tab-edit').click();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('gen-restore').click();
  await page.getByTestId('gen-tab-input').click();
  await expect(page.getByTestId('gen-prompt')).toHaveValue('a street');

  // A reference with an empty prompt: the prompt is extracted from the image first, then generated with.
  await page.getByTestId('gen-prompt').fill('');
  await page.getByTestId('gen-reference-input').setInputFiles(REFERENCE);
  await page.getByTestId('gen-count-1').click();
  await page.getByTestId('gen-run').click();
  await expect(page.getByTestId('gen-prompt')).toHaveValue('a woman with long red hair');
  await expect(page.getByTestId('gen-prompt-locked')).toBeVisible();
  await expect(page.getByTestId('gen-result')).toHaveCount(1, { timeout: 60_000 });

  // The lock holds on the Edit tab too (issue 28, point 3): no instruction, no Apply, no Restore; a click
  // on the instruction opens the lock popup, and no rewrite is asked for.
  const asked = rewrites.length;
  await page.getByTestId('gen-tab-edit').click();
  await expectEditTabLocked(page);
  await page.getByTestId('gen-instruction').click();
  await expect(page.getByTestId('gen-lock-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  const instruction = await page.getByTestId('gen-instruction').inputValue();
  await page.getByTestId('gen-instruction').press('x');
  await expect(page.getByTestId('gen-instruction')).toHaveValue(instruction);
  expect(rewrites).toHaveLength(asked);
  await page.getByTestId('gen-tab-input').click();
  await expect(page.getByTestId('gen-prompt')).toHaveValue('a woman with long red hair');
  // Without the reference the tab works again.
  await page.getByTestId('gen-reference-remove').click();
  await page.getByTestId('gen-tab-edit').click();
  await expect(page.getByTestId('gen-apply')).toBeEnabled();
  await expect(page.getByTestId('gen-instruction-locked')).toHaveCount(0);
});

/** The Edit tab of a page whose reference image locks the prompt: read-only, nothing to press, marked locked. */
async function expectEditTabLocked(page: Page) {
  await expect(page.getByTestId('gen-instruction-locked')).toBeVisible();
  await expect(page.getByTestId('gen-instruction')).toHaveAttribute('readonly', '');
  await expect(page.getByTestId('gen-apply')).toBeDisabled();
  await expect(page.getByTestId('gen-restore')).toBeDisabled();
}
