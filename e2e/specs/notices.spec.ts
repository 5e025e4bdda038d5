import path from 'node:path';
import { expect, request, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { ADMIN } from './admin-account';
import { FIXTURES, headerBalance, logIn, shot, SHOTS, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * Issue 13, the page side: the notice board (the administrator writes a notice with an inline image and
 * an attachment, pins it, edits it, deletes another; a member and a visitor read it without the
 * controls), the legal pages in both languages, and the maintenance switch answering the retouch
 * button. The administrator is the first account of the e2e server, created by global-setup.ts.
 */

const PHOTO = path.join(FIXTURES, 'obama_910x1137.jpg');
const MAINTENANCE_KO = '현재 서비스 점검중입니다. 잠시 후 다시 시도해주세요.';
/** Every cookie the product sets (privacy policy §6); anything else would be an analytics or marketing cookie. */
const OWN_COOKIES = new Set(['dewy_sid', 'dewy_device', 'locale', 'dewy_aff']);

/** A page signed in as the administrator, in its own context. */
async function adminPage(browser: Browser, opts: { width?: number; lang?: 'ko' | 'en' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, locale: opts.lang === 'en' ? 'en-US' : 'ko-KR' });
  const page = await context.newPage();
  await page.goto(opts.lang === 'en' ? '/en/login' : '/login');
  await logIn(page, ADMIN.email, ADMIN.password);
  return page;
}

/** An API client signed in as the administrator (for the maintenance switch). */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { origin: new URL(baseURL).origin } });
  const res = await api.post('/api/auth/login', { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(res.ok(), await res.text()).toBe(true);
  expect(((await (await api.get('/api/auth/check')).json()) as { user: { isAdmin: boolean } }).user.isAdmin, 'global-setup made the first account the administrator').toBe(true);
  return api;
}

/** Dispatches a paste of `bytes` as an image file into the element (what a browser does for a pasted screenshot). */
async function pasteImage(page: Page, testId: string, bytes: Buffer, name: string) {
  await page.getByTestId(testId).evaluate(
    (el, { b64, fileName }) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], fileName, { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { b64: bytes.toString('base64'), fileName: name },
  );
}

/** Dispatches a drop of `bytes` as an image file onto the element. */
async function dropImage(page: Page, testId: string, bytes: Buffer, name: string) {
  await page.getByTestId(testId).evaluate(
    (el, { b64, fileName }) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], fileName, { type: 'image/png' }));
      el.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { b64: bytes.toString('base64'), fileName: name },
  );
}

/** A screenshot of the viewport only (a modal's overlay covers the viewport, not the full page). */
async function viewportShot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

const png = (r: number, g: number, b: number) => sharp({ create: { width: 320, height: 180, channels: 3, background: { r, g, b } } }).png().toBuffer();

test.describe.serial('notice board, legal pages and maintenance', () => {
  const stamp = Date.now().toString(36);
  const title = `E2E 점검 안내 ${stamp}`;
  const editedTitle = `E2E 점검 안내 (수정) ${stamp}`;
  let noticeId = 0;

  test('the administrator writes a notice with an inline image and an attachment, pins it and edits it', async ({ browser }) => {
    const page = await adminPage(browser);
    await page.goto('/notice');
    await page.getByTestId('notice-new').click();
    await expect(page).toHaveURL(/\/notice\/write$/);
    await expect(page.getByTestId('notice-admin-only')).toHaveCount(0);
    await expect(page.getByTestId('notice-content-input')).toHaveAttribute('rows', '12');

    // Empty fields: the 002 §5 message, nothing sent.
    await page.getByTestId('notice-submit').click();
    await expect(page.getByTestId('notice-form-message')).toHaveText('제목과 내용을 입력해주세요.');

    await page.getByTestId('notice-title-input').fill(title);
    const content = page.getByTestId('notice-content-input');
    await content.fill('서비스 점검을 안내드립니다.\n<p>점검 중에는 <strong>새 보정</strong>을 시작할 수 없습니다.</p>\n<script>window.__xss = 1</script><img src="x" onerror="window.__xss = 2">\n');
    // Inline images three ways: the chooser, a paste and a drop; each is uploaded, then inserted.
    await page.getByTestId('notice-image-input').setInputFiles(PHOTO);
    await expect(content).toHaveValue(/<img src="\/api\/notices\/files\/\d+" alt="obama_910x1137">/);
    await content.press('End');
    await pasteImage(page, 'notice-content-input', await png(20, 168, 152), 'pasted.png');
    await expect.poll(async () => ((await content.inputValue()).match(/<img src="\/api\/notices\/files\/\d+"/g) ?? []).length).toBe(2);
    await dropImage(page, 'notice-content-input', await png(240, 180, 60), 'dropped.png');
    await expect.poll(async () => ((await content.inputValue()).match(/<img src="\/api\/notices\/files\/\d+"/g) ?? []).length).toBe(3);

    // Attachments: images only, the same file twice is ignored.
    await page.getByTestId('notice-files-input').setInputFiles(PHOTO);
    await page.getByTestId('notice-files-input').setInputFiles(PHOTO);
    await expect(page.getByTestId('notice-form-message')).toHaveText('이미 첨부한 파일은 건너뛰었습니다.');
    await expect(page.getByTestId('notice-attachments').locator('li')).toHaveCount(1);
    await page.getByTestId('notice-files-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await expect(page.getByTestId('notice-form-message')).toHaveText('이미지 파일만 넣을 수 있습니다.');
    await expect(page.getByTestId('notice-attachments').locator('li')).toHaveCount(1);

    await page.getByTestId('notice-pin-input').check();
    await page.getByTestId('notice-submit').click();

    // Creating returns to the list: the notice is first, with the pin mark instead of a number.
    await expect(page).toHaveURL(/\/notice$/);
    const first = page.getByTestId('notice-row').first();
    await expect(first).toContainText(title);
    await expect(first.getByTestId('notice-pin')).toBeVisible();
    await expect(first).toContainText(ADMIN.name);

    await first.getByTestId('notice-link').click();
    await expect(page).toHaveURL(/\/notice\/\d+$/);
    noticeId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByTestId('notice-title')).toHaveText(title);
    const body = page.getByTestId('notice-content');
    await expect(body.locator('strong')).toHaveText('새 보정');
    await expect(body.locator('img')).toHaveCount(3);
    await expect(body.locator('script')).toHaveCount(0);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="notice-content"] img')).every((i) => (i as HTMLImageElement).naturalWidth > 0));
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    const file = page.getByTestId('notice-file');
    await expect(file).toHaveText('obama_910x1137.jpg');
    await expect(file).toHaveAttribute('target', '_blank');
    await expect(file).toHaveAttribute('rel', 'noopener noreferrer');
    const served = await page.request.get((await file.getAttribute('href'))!);
    expect(served.headers()['content-type']).toBe('image/jpeg');

    // Edit: the form starts from the stored notice; editing returns to the notice.
    await page.getByTestId('notice-edit').click();
    await expect(page).toHaveURL(new RegExp(`/notice/${noticeId}/edit$`));
    await expect(page.getByTestId('notice-title-input')).toHaveValue(title);
    await expect(page.getByTestId('notice-pin-input')).toBeChecked();
    await expect(page.getByTestId('notice-submit')).toHaveText('수정');
    await page.getByTestId('notice-title-input').fill(editedTitle);
    await page.getByTestId('notice-content-input').press('Control+End');
    await page.getByTestId('notice-content-input').pressSequentially('<p>점검은 30분 걸립니다.</p>');
    await page.getByTestId('notice-submit').click();
    await expect(page).toHaveURL(new RegExp(`/notice/${noticeId}$`));
    await expect(page.getByTestId('notice-title')).toHaveText(editedTitle);
    await expect(page.getByTestId('notice-content')).toContainText('점검은 30분 걸립니다.');
    await expect(page.getByTestId('notice-content').locator('img')).toHaveCount(3);
    await page.context().close();
  });

  test('the administrator deletes a notice after the cannot-undo confirmation', async ({ browser }) => {
    const page = await adminPage(browser);
    await page.goto('/notice/write');
    const doomed = `E2E 삭제할 공지 ${stamp}`;
    await page.getByTestId('notice-title-input').fill(doomed);
    await page.getByTestId('notice-content-input').fill('곧 지웁니다.');
    await page.getByTestId('notice-submit').click();
    await expect(page).toHaveURL(/\/notice$/);
    // Unpinned: it follows the pinned notice and has a number.
    const row = page.getByTestId('notice-row').filter({ hasText: doomed });
    await expect(row.locator('.col-no')).toHaveText(/^\d+$/);
    await row.getByTestId('notice-link').click();
    await expect(page.getByTestId('notice-files-none')).toHaveText('없음');
    await page.getByTestId('notice-delete').click();
    await expect(page.getByTestId('notice-delete-dialog')).toContainText('삭제하면 되돌릴 수 없습니다.');
    await page.getByTestId('notice-delete-confirm').click();
    await expect(page).toHaveURL(/\/notice$/);
    await expect(page.getByTestId('notice-row').filter({ hasText: doomed })).toHaveCount(0);
    await expect(page.getByTestId('notice-row').filter({ hasText: editedTitle })).toHaveCount(1);
    await page.context().close();
  });

  test('a member and a visitor read the notice but see no write controls; the editor says admin only', async ({ browser, baseURL }) => {
    expect(noticeId).toBeGreaterThan(0);
    const context = await browser.newContext({ locale: 'ko-KR' });
    const page = await context.newPage();

    // A visitor reads.
    await page.goto('/notice');
    await expect(page.getByTestId('notice-row').filter({ hasText: editedTitle })).toHaveCount(1);
    await expect(page.getByTestId('notice-new')).toHaveCount(0);
    await page.goto(`/notice/${noticeId}`);
    await expect(page.getByTestId('notice-title')).toHaveText(editedTitle);
    await expect(page.getByTestId('notice-edit')).toHaveCount(0);

    // A member reads, sees no controls, and the editor refuses them.
    const email = uniqueEmail('reader');
    await signUpAndLogInByApi(page, email, 'password-1234');
    await page.goto('/notice');
    await expect(page.getByTestId('notice-row').first()).toContainText(editedTitle);
    await expect(page.getByTestId('notice-new')).toHaveCount(0);
    await page.getByTestId('notice-row').first().getByTestId('notice-link').click();
    await expect(page.getByTestId('notice-title')).toHaveText(editedTitle);
    await expect(page.getByTestId('notice-content').locator('img')).toHaveCount(3);
    await expect(page.getByTestId('notice-edit')).toHaveCount(0);
    await expect(page.getByTestId('notice-delete')).toHaveCount(0);
    await page.getByTestId('notice-back').click();
    await expect(page).toHaveURL(/\/notice$/);

    await page.goto('/notice/write');
    await expect(page.getByTestId('notice-admin-only')).toHaveText('공지사항은 관리자만 작성할 수 있습니다.');
    await expect(page.getByTestId('notice-admin-only')).toHaveCSS('color', 'rgb(185, 28, 28)');
    await expect(page.getByTestId('notice-submit')).toBeDisabled();
    await pasteImage(page, 'notice-content-input', await png(1, 2, 3), 'x.png');
    await expect(page.getByTestId('notice-form-message')).toHaveText('이미지 붙여넣기는 관리자만 할 수 있습니다.');
    await page.goto(`/notice/${noticeId}/edit`);
    await expect(page.getByTestId('notice-admin-only')).toBeVisible();
    await expect(page.getByTestId('notice-submit')).toBeDisabled();

    // And the server refuses them whatever the page shows.
    const put = await page.request.put(`/api/notices/${noticeId}`, { data: { title: 'x', content: 'y', pinned: false }, headers: { origin: new URL(baseURL!).origin } });
    expect(put.status()).toBe(403);
    expect(((await put.json()) as { error: string }).error).toBe('작성 권한이 없습니다.');

    // English: the list in English, 'Admin' as the default author column header stays 'Author'.
    await page.goto('/en/notice');
    await expect(page.getByRole('columnheader', { name: 'Title' })).toBeVisible();
    await expect(page.getByTestId('notice-prev')).toBeDisabled();
    await context.close();
  });

  test('each legal page in both languages: the path decides, the switch goes to the matching path', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'ko-KR' });
    const page = await context.newPage();
    const titles = { terms: ['이용약관', 'Terms of service'], privacy: ['개인정보처리방침', 'Privacy policy'], refund: ['환불정책', 'Refund policy'] } as const;
    for (const doc of ['terms', 'privacy', 'refund'] as const) {
      const [ko, en] = titles[doc];
      await page.goto(`/${doc}/kr`);
      await expect(page.getByTestId('legal-title')).toHaveText(ko);
      await expect(page.getByTestId('legal-page')).toHaveAttribute('data-locale', 'ko');
      await expect(page.getByTestId('legal-updated')).toContainText('최종 수정일: 2026년 11월 27일');
      // Unset operator details are left out (issue 25): no "to be filled in", the support e-mail stays.
      await expect(page.getByTestId('legal-company')).toContainText('고객지원 이메일');
      await expect(page.getByTestId('legal-company')).not.toContainText('상호');
      await expect(page.getByTestId('legal-page')).not.toContainText('운영자가 입력할 예정');
      // /…/en is English even in this Korean session; the header stays Korean.
      await page.getByTestId('legal-switch-en').click();
      await expect(page).toHaveURL(new RegExp(`/${doc}/en$`));
      await expect(page.getByTestId('legal-title')).toHaveText(en);
      await expect(page.getByTestId('legal-company')).toContainText('Support e-mail');
      await expect(page.getByTestId('legal-page')).not.toContainText('to be filled in by the operator');
      await expect(page.getByTestId('header')).toContainText('공지사항');
      await page.getByTestId('legal-switch-kr').click();
      await expect(page).toHaveURL(new RegExp(`/${doc}/kr$`));
      await expect(page.getByTestId('legal-title')).toHaveText(ko);
      // The /en/… form; the bare path follows the session's language.
      await page.goto(`/en/${doc}`);
      await expect(page.getByTestId('legal-title')).toHaveText(en);
      await page.goto(`/${doc}`);
      await expect(page.getByTestId('legal-title')).toHaveText(ko);
      await page.getByTestId('lang-en').click();
      await expect(page).toHaveURL(new RegExp(`/en/${doc}$`));
      await expect(page.getByTestId('legal-title')).toHaveText(en);
      // In an English session the Korean document (/terms/kr → /en/terms/kr) stays Korean.
      await page.getByTestId('legal-switch-kr').click();
      await expect(page).toHaveURL(new RegExp(`/en/${doc}/kr$`));
      await expect(page.getByTestId('legal-title')).toHaveText(ko);
      await expect(page.getByTestId('header')).toContainText('Notice');
      await page.getByTestId('lang-kr').click();
      await expect(page).toHaveURL(new RegExp(`^[^?]*//[^/]+/${doc}/kr$`));
      await expect(page.getByTestId('legal-title')).toHaveText(ko);
    }
    // The footer reaches each document in the site's language.
    await page.goto('/');
    await page.getByTestId('footer-privacy').click();
    await expect(page).toHaveURL(/\/privacy\/kr$/);
    await expect(page.getByTestId('legal-title')).toHaveText('개인정보처리방침');
    await expect(page.getByTestId('legal-page')).toContainText('분석 쿠키나 마케팅·광고 쿠키를 설정하지 않으며');
    await expect(page.getByTestId('footer-company')).toContainText('@');
    await expect(page.getByTestId('footer-company')).not.toContainText('운영자가 입력할 예정');
    // Keep the privacy policy true: nothing but the product's own cookies (no analytics, no marketing).
    const names = (await context.cookies()).map((c) => c.name);
    expect(names.filter((n) => !OWN_COOKIES.has(n))).toEqual([]);
    await context.close();
  });

  test('maintenance on: the retouch button answers the maintenance message and charges nothing; off again', async ({ page, baseURL }) => {
    const email = uniqueEmail('maint');
    await signUpAndLogInByApi(page, email, 'password-1234');
    await page.goto('/upscale');
    await page.getByTestId('upscale-file-input').setInputFiles(PHOTO);
    await expect(page.getByTestId('upload-preview')).toBeVisible({ timeout: 30_000 });
    const generate = page.getByTestId('upscale-generate');
    await expect(generate).toBeEnabled({ timeout: 30_000 });
    const before = await headerBalance(page);

    const api = await adminApi(baseURL!);
    try {
      const on = await api.put('/api/admin/maintenance', { data: { on: true } });
      expect(((await on.json()) as { on: boolean }).on).toBe(true);
      await generate.click();
      await expect(page.getByText(MAINTENANCE_KO)).toBeVisible();
      await expect(page.getByTestId('upscale-stage')).not.toHaveAttribute('data-state', 'completed');
      expect(await headerBalance(page)).toBe(before);
    } finally {
      const off = await api.put('/api/admin/maintenance', { data: { on: false } });
      expect(((await off.json()) as { on: boolean }).on).toBe(false);
      await api.dispose();
    }
    expect(((await (await page.request.get('/api/feature/flags')).json()) as { maintenance: boolean }).maintenance).toBe(false);
  });

  test('notice and legal screens at 390 and 1440 px in both languages', async ({ browser, baseURL }) => {
    expect(noticeId).toBeGreaterThan(0);
    // A second, unpinned notice, so the list shows a numbered row under the pinned one.
    const api = await adminApi(baseURL!);
    const made = await api.post('/api/notices', { multipart: { title: `E2E 이벤트 당첨자 발표 ${stamp}`, content: '<p>축하드립니다.</p>', pinned: '' } });
    expect(made.status(), await made.text()).toBe(201);
    await api.dispose();
    for (const width of [390, 1440]) {
      for (const lang of ['ko', 'en'] as const) {
        const page = await adminPage(browser, { width, lang });
        const at = (p: string) => (lang === 'en' ? `/en${p}` : p);
        const settle = async () => {
          await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
          await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
          // Shots start at the top (a sticky header captured while scrolled lands mid-page).
          await page.evaluate(() => window.scrollTo(0, 0));
        };
        await page.goto(at('/notice'));
        await expect(page.getByTestId('notice-table')).toBeVisible();
        await settle();
        await shot(page, `notice-list-${lang}-${width}`);
        await page.goto(at(`/notice/${noticeId}`));
        await expect(page.getByTestId('notice-content')).toBeVisible();
        await settle();
        await shot(page, `notice-detail-${lang}-${width}`);
        await page.getByTestId('notice-delete').click();
        await expect(page.getByTestId('notice-delete-dialog')).toBeVisible();
        await viewportShot(page, `notice-delete-${lang}-${width}`);
        await page.keyboard.press('Escape');
        await page.goto(at('/notice/write'));
        await expect(page.getByTestId('notice-form')).toBeVisible();
        await page.getByTestId('notice-files-input').setInputFiles(PHOTO);
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, `notice-editor-${lang}-${width}`);
        for (const doc of ['terms', 'privacy', 'refund']) {
          await page.goto(lang === 'en' ? `/en/${doc}` : `/${doc}/kr`);
          await expect(page.getByTestId('legal-page')).toHaveAttribute('data-locale', lang);
          await settle();
          await shot(page, `legal-${doc}-${lang}-${width}`);
        }
        await page.context().close();
      }
    }
    // The editor as a member sees it (the red admin-only message).
    const context = await browser.newContext({ viewport: { width: 390, height: 900 }, locale: 'ko-KR' });
    const member = await context.newPage();
    const email = uniqueEmail('reader-shot');
    await signUpAndLogInByApi(member, email, 'password-1234');
    await member.goto('/notice/write');
    await expect(member.getByTestId('notice-admin-only')).toBeVisible();
    await member.evaluate(() => window.scrollTo(0, 0));
    await shot(member, 'notice-editor-member-ko-390');
    await context.close();
  });
});
