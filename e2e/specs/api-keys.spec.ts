import { expect, test, type Browser } from '@playwright/test';
import { shot, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * API keys on My Page (issue 24, decision 040 §1): create with a name and an expiry, the secret shown
 * once with a copy button, the list with the prefix, revoke after a confirmation; ko and en at 390 and
 * 1440 px.
 */
async function member(browser: Browser, width: number, lang: 'ko' | 'en') {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await signUpAndLogInByApi(page, uniqueEmail(`apikeys-${lang}`), 'api-keys-pass-1', { landing: lang === 'en' ? '/en' : '/' });
  await page.goto(lang === 'en' ? '/en/mypage' : '/mypage');
  return page;
}

const T = {
  ko: { empty: '아직 만든 API 키가 없습니다.', once: '한 번만 표시됩니다', revoked: '폐기됨', nameRequired: '키 이름을 입력해주세요.' },
  en: { empty: 'You have no API keys yet.', once: 'shown only this once', revoked: 'Revoked', nameRequired: 'Please enter a key name.' },
} as const;

for (const lang of ['ko', 'en'] as const) {
  test(`create, copy once and revoke an API key (${lang}), with screens at 390 and 1440 px`, async ({ browser }) => {
    const page = await member(browser, 1440, lang);
    const card = page.getByTestId('mypage-api-keys');
    await card.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('api-keys-empty')).toHaveText(T[lang].empty);

    // No name: the field's rule, nothing created.
    await page.getByTestId('api-key-create').click();
    await expect(page.getByTestId('api-key-error')).toHaveText(T[lang].nameRequired);
    await expect(page.getByTestId('api-keys-empty')).toBeVisible();

    await page.getByTestId('api-key-name').fill('Studio batch');
    await page.getByTestId('api-key-expiry').selectOption('90');
    await page.getByTestId('api-key-create').click();
    const secretBox = page.getByTestId('api-key-secret');
    await expect(secretBox).toContainText(T[lang].once);
    const secret = (await page.getByTestId('api-key-secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^dewy_sk_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('api-key-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const item = page.getByTestId('api-key-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('Studio batch');
    await expect(item).toContainText(`${secret.slice(0, 16)}…`);
    await expect(item).toHaveAttribute('data-state', 'active');
    await card.scrollIntoViewIfNeeded();
    await shot(page, `api-keys-created-${lang}-1440`, { fullPage: false });

    // Once: gone after Done and after a reload; the list never holds the secret.
    await page.getByTestId('api-key-secret-done').click();
    await expect(secretBox).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('api-key-item')).toHaveCount(1);
    expect(await page.content()).not.toContain(secret.slice(16));
    // The key's webhook signing secret (decision 040 §3): shown shortened, copied whole.
    await expect(page.getByTestId('api-key-webhook-secret')).toContainText(/^whsec_/);
    await page.getByTestId('api-key-webhook-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    // Revoke asks first; cancel keeps it, confirm revokes it.
    await page.getByTestId('api-key-revoke').click();
    const dialog = page.getByTestId('api-key-revoke-dialog');
    await expect(dialog).toContainText('Studio batch');
    await card.scrollIntoViewIfNeeded();
    await shot(page, `api-keys-revoke-dialog-${lang}-1440`, { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('api-key-item')).toHaveAttribute('data-state', 'active');
    await page.getByTestId('api-key-revoke').click();
    await page.getByTestId('api-key-revoke-confirm').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('api-key-item')).toHaveAttribute('data-state', 'revoked');
    await expect(page.getByTestId('api-key-item')).toContainText(T[lang].revoked);
    await expect(page.getByTestId('api-key-revoke')).toHaveCount(0);
    await card.scrollIntoViewIfNeeded();
    await shot(page, `api-keys-revoked-${lang}-1440`, { fullPage: false });

    // The phone width: the same card, nothing cut off.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('api-key-name').fill('Phone key');
    await page.getByTestId('api-key-create').click();
    await expect(page.getByTestId('api-key-secret')).toBeVisible();
    await expect(page.getByTestId('api-key-item')).toHaveCount(2);
    const overflow = await card.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await card.scrollIntoViewIfNeeded();
    await shot(page, `api-keys-${lang}-390`, { fullPage: false });
    await page.context().close();
  });
}
