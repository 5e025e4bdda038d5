import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { FIXTURES, SHOTS, expectPaymentSuccess, headerBalance, payOnSandbox, shot, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * Batch retouch on the page (issue 24, decision 040 §4): five photos picked at ×0.9 — four real
 * portraits under the ≥ 4000 px rule and one made too large for it — show five cards with the fifth left
 * out and a total of the four costs; the batch runs on the real local engine, each card turning
 * `completed` on the job event stream; the zip holds the four results; the header's balance drops by
 * exactly the total shown. Screens before the start and after completion at 390 and 1440 px in ko and
 * en, and the My Page batches card.
 */

/** ×0.9: small outputs (the engine is quick on them), and a scale the ≥ 4000 px rule applies to (not ×1). */
const SCALE_STEPS_DOWN = 1;
const PORTRAITS = ['codeformer03_asian_female_400x225.jpg', 'gfpgan_adele_crop_512.png', 'rose_leslie_577x880.jpg', 'obama_910x1137.jpg'];
/** 2300 + 2300 = 4600 px (under 5000: uploaded as it is); ×0.9 → 2070 + 2070 = 4140 ≥ 4000: blocked. */
const OVERSIZE = 'oversize_2300x2300.jpg';

async function oversizePhoto(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-batch-e2e-'));
  const file = path.join(dir, OVERSIZE);
  await sharp(path.join(FIXTURES, 'rose_leslie_577x880.jpg')).resize(2300, 2300, { fit: 'fill' }).jpeg({ quality: 85 }).toFile(file);
  return file;
}

/** Opens the batch page, sets ×0.9 and picks the five photos; returns the five cards' locator. */
async function pickFive(page: Page, prefix: '' | '/en', oversize: string) {
  await page.goto(`${prefix}/upscale/batch`);
  await expect(page.getByTestId('batch-page')).toHaveAttribute('data-mode', 'compose');
  const thumb = page.getByTestId('batch-scale').getByRole('slider');
  await thumb.focus();
  for (let i = 0; i < SCALE_STEPS_DOWN; i++) await thumb.press('ArrowLeft');
  await expect(page.getByTestId('batch-scale-value')).toHaveText('×0.9');
  await page.getByTestId('batch-file-input').setInputFiles([...PORTRAITS.map((f) => path.join(FIXTURES, f)), oversize]);
  const cards = page.getByTestId('batch-card');
  await expect(cards).toHaveCount(5);
  await expect(page.getByTestId('batch-start')).toBeEnabled();
  return cards;
}

/** Every image of the page decoded (a screenshot of half-loaded thumbnails says nothing). */
async function imagesLoaded(page: Page) {
  await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
}

/** The entries of a zip file and their bytes, read with yauzl. */
function readZip(file: string): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out: { name: string; bytes: Buffer }[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** A second window of the same signed-in customer at a width and a language. */
async function sameCustomer(browser: Browser, from: BrowserContext, width: number, lang: 'ko' | 'en') {
  const context = await browser.newContext({
    storageState: await from.storageState(),
    viewport: { width, height: width === 390 ? 844 : 900 },
    locale: lang === 'ko' ? 'ko-KR' : 'en-US',
    reducedMotion: 'reduce',
  });
  return { context, page: await context.newPage() };
}

test('a batch of five photos: one left out by the 4000 px rule, four retouched, a zip of four, the total charged', async ({ browser }) => {
  test.setTimeout(600_000);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'ko-KR', reducedMotion: 'reduce' });
  const page = await context.newPage();
  const oversize = await oversizePhoto();

  // A verified customer with 300 + 1500 credits (four photos cost more than the welcome 300).
  await signUpAndLogInByApi(page, uniqueEmail('batch'), 'batch-pass-1234', { landing: '/pricing?tab=credits' });
  await page.getByTestId('pack-buy-package1').click();
  await payOnSandbox(page);
  await expectPaymentSuccess(page, '1,500');

  // The single workspace links to the batch page and back.
  await page.goto('/upscale');
  await page.getByTestId('upscale-batch-link').click();
  await expect(page).toHaveURL(/\/upscale\/batch$/);
  await expect(page.getByTestId('batch-single-link')).toHaveAttribute('href', '/upscale');

  const cards = await pickFive(page, '', oversize);
  // Four included with their cost at ×0.9, the oversize one left out (nothing charged for it).
  const oversizeCard = cards.filter({ hasText: OVERSIZE });
  await expect(oversizeCard).toHaveAttribute('data-status', 'excluded');
  await expect(oversizeCard).toHaveAttribute('data-issue', 'blocked');
  await expect(oversizeCard.getByTestId('batch-card-reason')).toContainText('2070×2070');
  const ready = page.locator('[data-testid="batch-card"][data-status="ready"]');
  await expect(ready).toHaveCount(4);
  const costs = await ready.getByTestId('batch-card-cost').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-cost'))));
  const total = costs.reduce((a, b) => a + b, 0);
  expect(costs).toEqual([80, 80, 80, 80]); // every output is under 2500 px width + height at ×0.9
  await expect(page.getByTestId('batch-total')).toHaveAttribute('data-total', String(total));
  await expect(page.getByTestId('batch-included')).toHaveAttribute('data-included', '4');
  await expect(page.getByTestId('batch-coverage-note')).toHaveCount(0);
  await imagesLoaded(page);
  await shot(page, 'batch-before-ko-1440');

  const before = await headerBalance(page);
  expect(before).toBe(1800);
  const started = Date.now();
  await page.getByTestId('batch-start').click();
  await expect(page.getByTestId('batch-page')).toHaveAttribute('data-mode', 'run', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/upscale\/batch\?id=[0-9a-f-]{36}$/);
  const batchId = new URL(page.url()).searchParams.get('id')!;
  const runCards = page.getByTestId('batch-card');
  await expect(runCards).toHaveCount(4);
  await expect(page.getByTestId('batch-charged')).toHaveAttribute('data-charged', String(total));
  // The balance in the header follows the batch call at once.
  await expect.poll(() => headerBalance(page), { timeout: 60_000 }).toBe(before - total);

  // Each photo turns completed as its job's status event arrives (no fixed waits).
  for (let i = 0; i < 4; i++) await expect(runCards.nth(i)).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  console.info(`batch of 4 finished ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);
  await expect(page.getByTestId('batch-count-completed')).toHaveAttribute('data-count', '4');
  await expect(page.getByTestId('batch-pause')).toHaveCount(0);
  await expect(runCards.first().getByTestId('batch-card-compare')).toBeVisible();
  expect(await headerBalance(page)).toBe(before - total);

  // Download all: one zip with the four results, named after the originals, each a real image.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('batch-zip').click();
  const download = await downloading;
  const entries = await readZip(await download.path());
  expect(entries.map((e) => e.name).sort()).toEqual(PORTRAITS.map((f) => f.replace(/\.(jpg|png)$/, '.jpg')).sort());
  for (const entry of entries) {
    const meta = await sharp(entry.bytes).metadata();
    expect(meta.format, entry.name).toBe('jpeg');
    expect(meta.width ?? 0, entry.name).toBeGreaterThan(0);
  }
  await imagesLoaded(page);
  await shot(page, 'batch-done-ko-1440');

  // Switching language keeps the batch on screen, now in English (the page's own words load with it).
  await page.getByTestId('lang-en').click();
  await expect(page).toHaveURL(new RegExp(`/en/upscale/batch\\?id=${batchId}$`));
  await expect(page.getByTestId('batch-zip')).toHaveText('Download all (zip · 4)');
  await expect(page.getByTestId('batch-count-completed')).toHaveText('Completed 4');
  await page.getByTestId('lang-kr').click();
  await expect(page.getByTestId('batch-zip')).toHaveText('전체 다운로드 (zip · 4장)');

  // My Page: the batch with its counts, its photos on opening, and a link back to it.
  await page.goto('/mypage');
  const card = page.getByTestId('mypage-batches');
  await card.scrollIntoViewIfNeeded();
  const row = card.getByTestId('mypage-batch').first();
  await expect(row).toHaveAttribute('data-batch-id', batchId);
  await expect(row.getByTestId('mypage-batch-count-completed')).toContainText('4');
  await expect(row.getByTestId('mypage-batch-summary')).toContainText(String(total));
  await row.getByTestId('mypage-batch-toggle').click();
  await expect(row.getByTestId('mypage-batch-photo')).toHaveCount(4);
  await expect(row.getByTestId('mypage-batch-open')).toHaveAttribute('href', `/upscale/batch?id=${batchId}`);
  fs.mkdirSync(SHOTS, { recursive: true });
  await card.screenshot({ path: path.join(SHOTS, 'batch-mypage-ko-1440.png'), animations: 'disabled' });
  // The Retouch history shows the batch as one entry that opens to its four results.
  const history = page.getByTestId('mypage-history');
  await history.scrollIntoViewIfNeeded();
  const entry = history.getByTestId('mypage-history-batch');
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveAttribute('data-batch-id', batchId);
  await expect(entry).toContainText('배치 · 4장');
  await expect(entry.getByTestId('mypage-history-item')).toHaveCount(0);
  await entry.getByTestId('mypage-history-batch-toggle').click();
  await expect(entry.getByTestId('mypage-history-item')).toHaveCount(4);
  await history.screenshot({ path: path.join(SHOTS, 'batch-mypage-history-ko-1440.png'), animations: 'disabled' });

  // The other screens: the same finished batch opened by its address, and the page before a start.
  for (const [width, lang] of [
    [390, 'ko'],
    [390, 'en'],
    [1440, 'en'],
  ] as const) {
    const other = await sameCustomer(browser, context, width, lang);
    const prefix = lang === 'en' ? '/en' : '';
    await other.page.goto(`${prefix}/upscale/batch?id=${batchId}`);
    await expect(other.page.getByTestId('batch-card')).toHaveCount(4);
    for (let i = 0; i < 4; i++) await expect(other.page.getByTestId('batch-card').nth(i)).toHaveAttribute('data-status', 'completed');
    await expect(other.page.getByTestId('batch-zip')).toHaveAttribute('data-enabled', 'true');
    await imagesLoaded(other.page);
    await shot(other.page, `batch-done-${lang}-${width}`);
    await pickFive(other.page, prefix, oversize);
    await imagesLoaded(other.page);
    await shot(other.page, `batch-before-${lang}-${width}`);
    // On a phone the total and Start stay at the bottom of the window.
    if (width === 390) await shot(other.page, `batch-before-${lang}-390-window`, { fullPage: false });
    if (width === 390) {
      await other.page.goto(`${prefix}/mypage`);
      const mine = other.page.getByTestId('mypage-batches');
      await mine.scrollIntoViewIfNeeded();
      await mine.getByTestId('mypage-batch-toggle').first().click();
      await expect(mine.getByTestId('mypage-batch-photo')).toHaveCount(4);
      await mine.screenshot({ path: path.join(SHOTS, `batch-mypage-${lang}-390.png`), animations: 'disabled' });
    }
    await other.context.close();
  }
  await context.close();
});

/** Four small plain photos (fast on the engine: the subject here is the credits and pause, not the retouch). */
async function smallPhotos(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-batch-small-'));
  return Promise.all(
    ['#c9a27e', '#b58b6b', '#d9b99b', '#8d5f45'].map(async (background, i) => {
      const file = path.join(dir, `small-${i + 1}.jpg`);
      await sharp({ create: { width: 240, height: 300, channels: 3, background } }).jpeg({ quality: 85 }).toFile(file);
      return file;
    }),
  );
}

test('credits for 3 of 4: the 4th is refused; pause leaves no photo queued (each done or refunded), resume finishes them, 240 charged in all', async ({ browser }) => {
  test.setTimeout(420_000);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await context.newPage();
  await signUpAndLogInByApi(page, uniqueEmail('batch-pause'), 'batch-pass-1234', { landing: '/en/upscale/batch' });
  expect(await headerBalance(page)).toBe(300);

  // ×1: 80 credits each, 320 in all; the welcome 300 covers the first three.
  await page.getByTestId('batch-file-input').setInputFiles(await smallPhotos());
  await expect(page.locator('[data-testid="batch-card"][data-status="ready"]')).toHaveCount(4);
  await expect(page.getByTestId('batch-total')).toHaveAttribute('data-total', '320');
  await expect(page.getByTestId('batch-coverage-note')).toContainText('first 3 of 4');
  await page.getByTestId('batch-start').click();
  await expect(page.getByTestId('batch-page')).toHaveAttribute('data-mode', 'run', { timeout: 30_000 });
  const cards = page.getByTestId('batch-card');
  await expect(cards.nth(3)).toHaveAttribute('data-status', 'refused');
  await expect(cards.nth(3).getByTestId('batch-card-reason')).toHaveText('Insufficient credits');
  await expect(page.getByTestId('batch-credit-note')).toBeVisible();

  // Pause: whatever the worker had reached, afterwards no photo is queued: each of the first three is
  // completed (charged) or cancelled and refunded ("Paused — not charged"); the balance says which.
  // Pause shows while a photo is processing; a fast worker may finish all three first (then there is
  // nothing to pause): the verdict below holds either way.
  const clicked = page.getByTestId('batch-pause').click({ timeout: 120_000 });
  clicked.catch(() => {});
  await Promise.race([clicked, expect(page.locator('[data-testid="batch-card"][data-status="completed"]')).toHaveCount(3, { timeout: 120_000 })]);
  await expect(page.getByTestId('batch-pause')).toHaveCount(0, { timeout: 60_000 });
  for (let i = 0; i < 3; i++) await expect(cards.nth(i)).toHaveAttribute('data-status', /^(completed|failed)$/);
  const paused = page.locator('[data-testid="batch-card"][data-status="failed"]');
  for (const reason of await paused.getByTestId('batch-card-reason').allTextContents()) expect(reason).toContain('Paused — not charged');
  const completed = await page.locator('[data-testid="batch-card"][data-status="completed"]').count();
  await expect(page.getByTestId('batch-charged')).toHaveAttribute('data-charged', String(80 * completed));
  await expect.poll(() => headerBalance(page), { timeout: 60_000 }).toBe(300 - 80 * completed);
  await shot(page, 'batch-paused-en-1440');

  // Resume (when anything was paused): the cancelled photos run again, charged anew; the 4th stays beyond the balance.
  if (completed < 3) await page.getByTestId('batch-resume').click();
  for (let i = 0; i < 3; i++) await expect(cards.nth(i)).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(cards.nth(3)).toHaveAttribute('data-status', 'refused');
  await expect(page.getByTestId('batch-charged')).toHaveAttribute('data-charged', '240');
  await expect.poll(() => headerBalance(page), { timeout: 60_000 }).toBe(60);
  await expect(page.getByTestId('batch-zip')).toHaveAttribute('data-enabled', 'true');
  await context.close();
});
