import { expect, test } from '@playwright/test';
import { shot } from './helpers';

const pages = [
  { name: 'landing', ko: '/', en: '/en', ready: 'landing-page' },
  { name: 'login', ko: '/login', en: '/en/login', ready: 'login-form' },
  { name: 'signup', ko: '/signup', en: '/en/signup', ready: 'signup-form' },
];

for (const width of [390, 1440]) {
  for (const lang of ['ko', 'en'] as const) {
    test(`screens at ${width} px in ${lang}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
      const page = await context.newPage();
      for (const p of pages) {
        await page.goto(p[lang]);
        await expect(page.getByTestId(p.ready)).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await page.waitForLoadState('networkidle');
        await shot(page, `${p.name}-${lang}-${width}`);
      }
      await context.close();
    });
  }
}
