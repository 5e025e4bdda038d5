import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { FIXTURES, headerBalance, shot, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * Issue 15, the page side: the prompt chat against the fake OpenAI-compatible server the config starts
 * before the app (answers "Echo: <text>", 150 ms per streamed word). A streamed answer grows on the page,
 * the thread survives a reload, delete asks first; the spec's messages in both languages; screenshots at
 * 390 and 1440 px in Korean and English.
 */

const PHOTO = path.join(FIXTURES, 'obama_910x1137.jpg');

async function member(browser: Browser, opts: { width: number; lang: 'ko' | 'en' }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: opts.width, height: opts.width < 600 ? 844 : 900 }, locale: opts.lang === 'en' ? 'en-US' : 'ko-KR' });
  const page = await context.newPage();
  const email = uniqueEmail('chat');
  await signUpAndLogInByApi(page, email, 'correct horse battery');
  if (opts.lang === 'en') await page.getByTestId('lang-en').click();
  return page;
}

const chatPath = (lang: 'ko' | 'en') => (lang === 'en' ? '/en/chat' : '/chat');

/** Types a message and presses Enter once the previous answer has finished (a send while one streams is ignored). */
async function sendText(page: Page, text: string) {
  await expect(page.getByTestId('chat-send')).toBeVisible();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
}

test('a streamed answer appears progressively, Shift+Enter is a new line, the thread survives a reload, delete asks first', async ({ browser }) => {
  const page = await member(browser, { width: 1440, lang: 'ko' });
  await page.goto('/chat');
  await expect(page.getByTestId('chat-cost')).toHaveText(/메시지당 3 크레딧/);
  const before = await headerBalance(page);

  const input = page.getByTestId('chat-input');
  await input.fill('first line');
  await input.press('Shift+Enter');
  await input.pressSequentially('second');
  await expect(input).toHaveValue('first line\nsecond');
  await expect(page.getByTestId('chat-msg-user')).toHaveCount(0);

  // Every text the answer takes on the page is recorded by the page itself (a MutationObserver), so the
  // verdict does not depend on how often a busy machine lets the test sample the DOM (issue 22).
  await page.evaluate(() => {
    const w = window as unknown as { __answerTexts: string[]; __stopShown?: boolean };
    w.__answerTexts = [];
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="chat-stop"]')) w.__stopShown = true;
      const all = document.querySelectorAll('[data-testid="chat-msg-assistant"]');
      const text = (all[all.length - 1]?.textContent ?? '').trim();
      if (text && w.__answerTexts[w.__answerTexts.length - 1] !== text) w.__answerTexts.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await sendText(page, 'please write one two three four five six seven eight nine ten');
  const answer = page.getByTestId('chat-msg-assistant').last();
  await expect(answer).toHaveText('Echo: please write one two three four five six seven eight nine ten', { timeout: 60_000 });
  const seen = await page.evaluate(() => (window as unknown as { __answerTexts: string[] }).__answerTexts);
  // The fake streams a word every 150 ms: the answer grew through partial texts before the whole one.
  const partials = new Set(seen.filter((t) => t.length < 'Echo: please write one two three four five six seven eight nine ten'.length));
  expect(partials.size, `texts seen: ${seen.join(' | ')}`).toBeGreaterThanOrEqual(3);
  // While it streamed, the send button was the stop button.
  expect(await page.evaluate(() => (window as unknown as { __stopShown?: boolean }).__stopShown)).toBe(true);
  await expect(answer).toHaveText('Echo: please write one two three four five six seven eight nine ten');
  await expect(page.getByTestId('chat-send')).toBeVisible();
  await expect(page).toHaveURL(/\/chat\?thread=[0-9a-f-]{36}$/);
  await expect(page.getByTestId('chat-thread')).toHaveCount(1);
  await expect.poll(() => headerBalance(page)).toBe(before - 3);

  // Markdown is rendered, raw HTML is not.
  await sendText(page, '**bold** and <img src=x onerror="window.__xss=1"> `code`');
  const md = page.getByTestId('chat-msg-assistant').last();
  await expect(md.locator('strong')).toHaveText('bold');
  await expect(md.locator('code')).toHaveText('code');
  await expect(md.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  // An image: the page refuses a non-image, sends a photo, shows it, and the model saw it.
  await page.getByTestId('chat-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText('이미지 파일만 업로드할 수 있습니다')).toBeVisible();
  await page.getByTestId('chat-file').setInputFiles(PHOTO);
  await expect(page.getByTestId('chat-attachment')).toBeVisible();
  await sendText(page, 'what do you see');
  await expect(page.getByTestId('chat-msg-assistant').last()).toHaveText('Echo: what do you see [1 image(s)]');
  await expect(page.getByTestId('chat-msg-user').last().locator('img')).toBeVisible();
  await shot(page, 'chat-1440-ko-image');

  await page.reload();
  await expect(page.getByTestId('chat-msg-user')).toHaveCount(3);
  await expect(page.getByTestId('chat-msg-assistant').first()).toHaveText('Echo: please write one two three four five six seven eight nine ten');
  await expect(page.getByTestId('chat-msg-user').last().locator('img')).toBeVisible();
  await expect(page.getByTestId('chat-thread').first()).toHaveClass(/is-active/);

  // Empty send: the spec's message, nothing sent.
  await sendText(page, '   ');
  await expect(page.getByText('메시지나 이미지를 입력해주세요')).toBeVisible();

  // Stop while streaming keeps what was written.
  await page.getByTestId('chat-new').click();
  await expect(page).toHaveURL(/\/chat$/);
  // '#hold': the fake streams half the answer and holds the stream open, so the stop lands mid-answer
  // however slow the machine is (the stream cannot end before the click).
  await sendText(page, 'a long answer with many many words to stop in the middle of it all right now #hold');
  await expect(page.getByTestId('chat-msg-assistant').last()).toContainText('Echo: a long answer');
  await page.getByTestId('chat-stop').click();
  await expect(page.getByTestId('chat-send')).toBeVisible();
  const partial = ((await page.getByTestId('chat-msg-assistant').last().textContent()) ?? '').trim();
  expect(partial.startsWith('Echo:')).toBe(true);
  expect(partial.endsWith('#hold')).toBe(false);
  await expect(page.getByTestId('chat-thread')).toHaveCount(2);

  // Delete asks first; cancel keeps it, confirm removes it.
  await page.getByTestId('chat-thread-delete').first().click();
  await expect(page.getByTestId('chat-delete-dialog')).toBeVisible();
  await page.getByRole('button', { name: '취소' }).click();
  await expect(page.getByTestId('chat-thread')).toHaveCount(2);
  await page.getByTestId('chat-thread-delete').first().click();
  await page.getByTestId('chat-delete-confirm').click();
  await expect(page.getByTestId('chat-thread')).toHaveCount(1);
  await page.context().close();
});

test('a visitor is told to log in; screenshots at 390 and 1440 px in both languages', async ({ browser }) => {
  const visitor = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await visitor.goto('/en/chat');
  await visitor.getByTestId('chat-input').fill('hello');
  await visitor.getByTestId('chat-input').press('Enter');
  await expect(visitor.getByText('Login required')).toBeVisible();
  await expect(visitor.getByTestId('chat-msg-user')).toHaveCount(0);
  await visitor.close();

  for (const lang of ['ko', 'en'] as const) {
    for (const width of [390, 1440]) {
      const page = await member(browser, { width, lang });
      await page.goto(chatPath(lang));
      await expect(page.getByTestId('chat-cost')).toBeVisible();
      await sendText(page, lang === 'ko' ? '인물 사진 프롬프트를 추천해줘' : 'Suggest a portrait prompt');
      await expect(page.getByTestId('chat-send')).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('chat-msg-assistant')).toHaveCount(1);
      await shot(page, `chat-${width}-${lang}`, { fullPage: false });
      if (width === 390) {
        await expect(page.locator('.chat-sidebar')).not.toBeInViewport();
        await page.getByTestId('chat-drawer').click();
        await expect(page.getByTestId('chat-thread')).toBeInViewport();
        await shot(page, `chat-390-${lang}-drawer`, { fullPage: false });
      }
      await page.context().close();
    }
  }
});

test('the page says when no model is configured, and shows the spec messages when a send or a delete fails', async ({ browser }) => {
  const page = await member(browser, { width: 1440, lang: 'en' });
  // Answers as a server without LLM_MODEL would (the server side of NOT_CONFIGURED is tested in apps/server).
  await page.route('**/api/ai/chat/charge-enabled', (route) => route.fulfill({ json: { success: true, enabled: true, cost: 3, configured: false } }));
  await page.goto('/en/chat');
  await expect(page.getByTestId('chat-not-configured')).toHaveText('The prompt chat is not configured on this server yet: no language model is set up.');
  await expect(page.getByTestId('chat-input')).toBeDisabled();
  await expect(page.getByTestId('chat-send')).toBeDisabled();
  await shot(page, 'chat-1440-en-not-configured', { fullPage: false });
  await page.unroute('**/api/ai/chat/charge-enabled');

  await page.reload();
  await sendText(page, 'hello there');
  await expect(page.getByTestId('chat-msg-assistant')).toHaveText('Echo: hello there');

  // A connection that fails: 'Cannot send message.'
  await page.route('**/api/ai/chat', (route) => route.abort('connectionreset'));
  await sendText(page, 'this one fails');
  await expect(page.getByText('Cannot send message.')).toBeVisible();
  await page.unroute('**/api/ai/chat');

  // A delete the server refuses: 'Delete failed.', the thread stays.
  await page.route('**/api/ai/threads/*', (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { success: false, code: 'INTERNAL', error: 'x', message: 'x' } }) : route.continue()));
  await page.getByTestId('chat-thread-delete').first().click();
  await page.getByTestId('chat-delete-confirm').click();
  await expect(page.getByText('Delete failed.')).toBeVisible();
  await expect(page.getByTestId('chat-thread')).toHaveCount(1);
  await page.context().close();
});
