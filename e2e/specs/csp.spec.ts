import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FIXTURES, logIn, signUp, uniqueEmail } from './helpers';

/**
 * Issue 7 item 6: the built SPA (and the API docs) work under the server's Content-Security-Policy:
 * no `securitypolicyviolation` while the pages load, a photo is previewed (blob:) and a select opens
 * (Radix injects a scroll-lock <style>).
 */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

test('the SPA and the API docs load under the CSP without a violation', async ({ page }) => {
  const violations = await recordViolations(page);
  const res = await page.goto('/');
  const csp = res!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res!.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByTestId('landing-page')).toBeVisible();
  expect(await violations()).toEqual([]);

  const email = uniqueEmail('csp');
  await signUp(page, email, 'password-123');
  await logIn(page, email, 'password-123');
  await page.goto('/en/upscale');
  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama_910x1137.jpg'));
  await expect(page.getByTestId('upload-preview')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('combobox').first().click();
  await page.keyboard.press('Escape');
  await page.waitForLoadState('networkidle');
  expect(await violations()).toEqual([]);

  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .opblock').first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
