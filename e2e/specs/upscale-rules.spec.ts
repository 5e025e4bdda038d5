import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FIXTURES, headerBalance, logIn, signUp, uniqueEmail } from './helpers';

test('the ≥ 4000 px rule blocks generation with a dialog, the cost follows the scale, and nothing is charged', async ({ page }) => {
  const email = uniqueEmail('rules');
  await signUp(page, email, 'password-1234');
  await logIn(page, email, 'password-1234');
  await page.goto('/en/upscale');
  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama3_1434x2333.jpg'));
  await expect(page.getByTestId('upload-dimensions')).toContainText('1434');
  await expect(page.getByTestId('upscale-generate')).toBeEnabled({ timeout: 30_000 });
  // at ×1: 1434 + 2333 = 3767 → 100 + 5 × 12 = 160 credits
  await expect(page.getByTestId('upscale-cost')).toContainText('160');
  // the slider marks this photo's largest allowed factor and explains the rule before any click
  await expect(page.getByTestId('upscale-scale-limit')).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId('upscale-scale-limit')).toContainText('×1.0');
  await expect(page.getByTestId('upscale-scale-hint')).toContainText('×1.0');

  const thumb = page.getByTestId('upscale-scale').getByRole('slider');
  await thumb.focus();
  await thumb.press('ArrowRight'); // ×1.1 → 1577 + 2566 = 4143 ≥ 4000
  await expect(page.getByTestId('upscale-scale-value')).toContainText('1.1');
  await expect(page.getByTestId('upscale-scale-hint')).toContainText('4143'); // explained before the click
  await page.getByTestId('upscale-generate').click();
  await expect(page.getByTestId('upscale-blocked-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('upscale-stage')).not.toHaveAttribute('data-state', 'processing');
  expect(await headerBalance(page)).toBe(300);

  // down to ×0.5: 717 + 1167 = 1884 → 80 credits, and the size badge says WORST!
  for (let i = 0; i < 6; i++) await thumb.press('ArrowLeft');
  await expect(page.getByTestId('upscale-scale-value')).toContainText('0.5');
  await expect(page.getByTestId('upscale-cost')).toContainText('80');
  await expect(page.getByTestId('upscale-size-badge')).toContainText('WORST!');
});
