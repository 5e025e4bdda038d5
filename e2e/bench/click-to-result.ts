/**
 * Measures, in a real browser, the time from the generate click to the comparison on screen for one
 * photo and scale (default obama_910x1137.jpg ×1.5), and how long the page lagged behind the job's
 * completion in the database (`completed_at` from the history API). Run against a started server:
 *
 *   npx tsx e2e/bench/click-to-result.ts http://localhost:5000 [photo] [scale] [runs]
 */
import path from 'node:path';
import { chromium } from '@playwright/test';

const [baseUrl = 'http://localhost:5000', photo = 'obama_910x1137.jpg', scale = '1.5', runsArg = '2'] = process.argv.slice(2);
const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/portraits');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'ko-KR', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const email = `bench-${Date.now()}@example.com`;
  const password = 'password-1234';
  const api = context.request;
  await api.post('/api/auth/register', { data: { name: 'Bench', email, password }, headers: { origin: baseUrl } });
  await api.post('/api/auth/login', { data: { email, password }, headers: { origin: baseUrl } });
  const me = (await (await api.get('/api/auth/check')).json()) as { user: { id: number } };
  for (let run = 1; run <= Number(runsArg); run++) {
    await page.goto('/upscale');
    await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, photo));
    await page.getByTestId('upload-preview').waitFor();
    const slider = page.getByTestId('upscale-scale').getByRole('slider');
    await slider.focus();
    for (let i = 0; i < 40; i++) {
      const shown = Number(((await page.getByTestId('upscale-scale-value').textContent()) ?? '').replace(/[^0-9.]/g, ''));
      if (Math.abs(shown - Number(scale)) < 1e-6) break;
      await slider.press(shown < Number(scale) ? 'ArrowRight' : 'ArrowLeft');
    }
    const generate = page.getByTestId('upscale-generate');
    await generate.waitFor({ state: 'visible' });
    const clickedAt = Date.now();
    await generate.click();
    await page.locator('[data-testid="upscale-stage"][data-state="completed"]').waitFor({ timeout: 300_000 });
    const shownAt = Date.now();
    const hist = (await (await api.get(`/api/image/history/${me.user.id}?source=upscale&limit=1`)).json()) as { images: { updated_at: string; width: number; height: number }[] };
    const completedAt = Date.parse(hist.images[0]!.updated_at);
    console.log(
      `run ${run}: ${photo} ×${scale} → ${hist.images[0]!.width}×${hist.images[0]!.height}: click → comparison ${((shownAt - clickedAt) / 1000).toFixed(2)} s; ` +
        `job completed → comparison ${((shownAt - completedAt) / 1000).toFixed(2)} s`,
    );
  }
} finally {
  await browser.close();
}
