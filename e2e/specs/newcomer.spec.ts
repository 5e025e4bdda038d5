/**
 * What a new user tripped over (issue 17), in both languages at 390 and 1440 px: the Korean web font,
 * validation errors naming field and rule, the e-mail carried from sign-up to login, signed-in visitors
 * sent on from the forms (no open redirect), one message when a session ends during an upload, toasts
 * and the community button never over a control, dates with their zone, and the size badge explained.
 */
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { FIXTURES, logIn, shot, uniqueEmail, verifyByMail } from './helpers';

const WIDTHS = [390, 1440] as const;
const LANGS = ['ko', 'en'] as const;
type Lang = (typeof LANGS)[number];
const PASSWORD = 'newcomer-pass-1';

const T = {
  ko: {
    short: '비밀번호: 8자 이상 입력해주세요.',
    email: '이메일: 올바른 이메일 주소를 입력해주세요. (예: name@example.com)',
    expiredTitle: '로그인 만료',
    expiredText: '로그인이 만료되었습니다. 다시 로그인해주세요.',
    worstTip: 'WORST!는 오류가 아닙니다.',
    guideWorst: '그 밖의 크기는 WORST!로 표시됩니다.',
  },
  en: {
    short: 'Password must be at least 8 characters.',
    email: 'E-mail must be an e-mail address, like name@example.com.',
    expiredTitle: 'Login expired',
    expiredText: 'Login has expired. Please log in again.',
    worstTip: 'WORST! is not an error',
    guideWorst: 'Any other size shows WORST!.',
  },
} as const;

const p = (lang: Lang, route: string) => (lang === 'en' ? `/en${route === '/' ? '' : route}` : route);

async function newPage(browser: Browser, width: number, lang: Lang): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
  return context.newPage();
}

async function signUpAndLogIn(page: Page, lang: Lang): Promise<string> {
  const email = uniqueEmail(`newcomer-${lang}`);
  const res = await page.request.post('/api/auth/register', { data: { name: 'Newcomer', email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  await page.goto(p(lang, '/login'));
  // Verified through the mailed link first, as a customer does: the welcome credits the jobs need arrive then (issue 14).
  await verifyByMail(page, email);
  await logIn(page, email, PASSWORD);
  return email;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the page reports about the community button: its state, and the controls under it. */
interface FabReport {
  /** 'aside' (transparent, click-through), 'clear' (shown, nothing under it) or what is wrong. */
  state: string;
}

/**
 * The page's own check, in one round trip: visible controls (links, buttons, inputs, sliders, labels)
 * whose box meets `box`, outside `except` and, when given, inside `within`. Runs in the page.
 */
function controlsUnderInPage({ box, except, within }: { box: Box; except: string; within: string | null }): string[] {
  const hits: string[] = [];
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, label, [role=slider], [role=button], [role=tab], [role=switch], [role=checkbox]';
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    if (el.closest(except)) continue;
    if (within && !el.closest(within)) continue;
    // checkVisibility: also false inside a closed <details> (content-visibility: hidden keeps boxes).
    if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
    // Line boxes, not the bounding box: a link wrapped over two lines covers only its text.
    for (const r of Array.from(el.getClientRects())) {
      if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight) continue;
      // Overlap of at least a whole pixel each way (a sub-pixel touch covers nothing visible).
      const dx = Math.min(r.right, box.x + box.width) - Math.max(r.x, box.x);
      const dy = Math.min(r.bottom, box.y + box.height) - Math.max(r.y, box.y);
      if (dx >= 1 && dy >= 1) {
        hits.push(`${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 30) ?? ''}] ${JSON.stringify({ r: [r.x, r.y, r.right, r.bottom], box })}`);
        break;
      }
    }
  }
  return hits;
}

/**
 * Visible controls (links, buttons, inputs, sliders, labels) whose box meets `box`, outside `except` and,
 * when given, inside `within`.
 */
async function controlsUnder(page: Page, box: Box, except: string, within?: string): Promise<string[]> {
  return page.evaluate(controlsUnderInPage, { box, except, within: within ?? null });
}

/**
 * The community button's state, computed in the page in one round trip (the checks a user's eye makes:
 * stepped aside and click-through, or shown over no control; a fixed run bar on a phone docks it).
 */
function fabStateInPage(controls: typeof controlsUnderInPage): FabReport {
  const fab = document.querySelector<HTMLElement>('[data-testid="community-button"]');
  if (!fab) return { state: 'no button' };
  if (fab.getAttribute('data-aside') === 'true') {
    const css = [getComputedStyle(fab).opacity, getComputedStyle(fab).pointerEvents].join(' ');
    return { state: css === '0 none' ? 'aside' : `aside but ${css}` };
  }
  const r = fab.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return { state: 'no button' };
  const box = { x: r.x, y: r.y, width: r.width, height: r.height };
  // A fixed run bar (tool pages on phones) docks the button: it must lie inside the bar (covering only
  // what the bar covers anyway), and none of the bar's own controls may be under it.
  const barSel = '.upscale-sticky-bar, .face-edit-sticky-bar';
  const bar = document.querySelector<HTMLElement>(barSel);
  const barFixed = !!bar && getComputedStyle(bar).position === 'fixed';
  if (bar && barFixed) {
    const b = bar.getBoundingClientRect();
    if (box.y < b.y || box.y + box.height > b.y + b.height + 0.5) return { state: 'outside the run bar' };
  }
  const hits = controls({ box, except: '[data-testid="community-button"]', within: barFixed ? barSel : null });
  return { state: hits.length === 0 ? 'clear' : `covers ${hits.join(', ')}` };
}

/**
 * The community button's state, computed in the page in one round trip (the checks a user's eye makes:
 * stepped aside and click-through, or shown over no control; a fixed run bar on a phone docks it).
 * Evaluated as one expression (DevTools evaluation is not subject to the page's CSP; a nested eval is).
 */
async function fabState(page: Page): Promise<FabReport> {
  return page.evaluate<FabReport>(`(${fabStateInPage.toString()})(${controlsUnderInPage.toString()})`);
}

/**
 * The community button does not cover a control, at the top of the page and at its end: either nothing
 * is under it, or it has stepped aside (transparent and click-through). Returns where it was shown.
 */
async function expectFabClear(page: Page, label: string, opts: { scan?: number } = {}): Promise<string[]> {
  const shown: string[] = [];
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  // The page's top and end; with `scan`, every 150 px down to that depth as well (mid-scroll positions).
  const stops: Array<number | 'end'> = [0, 'end'];
  for (let y = 150; opts.scan && y < Math.min(height, opts.scan); y += 150) stops.push(y);
  for (const where of stops) {
    await page.evaluate((w) => window.scrollTo(0, w === 'end' ? document.documentElement.scrollHeight : w), where);
    // Settles after the scroll (the button answers a scroll within a frame, a change without one within
    // 0.7 s); the deadline is generous for a saturated machine, the verdict is the settled state (issue 22).
    let last = '';
    await expect
      .poll(async () => (last = (await fabState(page)).state), { message: `${label} (${where})`, timeout: 60_000, intervals: [50, 100, 200, 400] })
      .toMatch(/^(aside|clear)$/);
    if (last === 'clear') shown.push(String(where));
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  console.info(`${label} at ${page.viewportSize()?.width} px: community button shown at ${shown.length} of ${stops.length} positions`);
  return shown;
}

// Every test opens its own context and signs up its own account: the file's tests spread over the
// workers (it is the longest spec file; decision 033).
test.describe.configure({ mode: 'parallel' });

test.describe('the Korean web font', () => {
  for (const width of WIDTHS) {
    test(`landing and login render Korean in the self-hosted Noto Sans KR at ${width} px`, async ({ browser }) => {
      const page = await newPage(browser, width, 'ko');
      const fonts: string[] = [];
      let fontBytes = 0;
      page.on('response', async (res) => {
        if (!res.url().endsWith('.woff2')) return;
        fonts.push(res.url());
        fontBytes += (await res.body().catch(() => Buffer.alloc(0))).length;
      });
      for (const route of ['/', '/login']) {
        await page.goto(route);
        await expect(page.getByTestId(route === '/' ? 'landing-page' : 'login-form')).toBeVisible();
        await page.evaluate(() => document.fonts.ready);
        // The web font face itself loaded (not a system CJK font standing in for it)…
        const loaded = await page.evaluate(() => {
          const faces: FontFace[] = [];
          document.fonts.forEach((f) => faces.push(f));
          return faces.filter((f) => f.family.replace(/"/g, '') === 'Noto Sans KR Variable' && f.status === 'loaded').length;
        });
        expect(loaded, 'loaded Noto Sans KR Variable faces').toBeGreaterThan(0);
        // …and Chromium drew the heading's Korean with it (the renderer's own report of the fonts used).
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        const { root } = await cdp.send('DOM.getDocument');
        const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' });
        const { fonts: used } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
        // A web font is reported by its own name table ('Noto Sans KR Thin': the variable font's default
        // instance) with isCustomFont; Debian's system font would be 'Noto Sans CJK KR', not custom.
        const web = used.filter((f) => f.isCustomFont && /^Noto Sans KR/.test(f.familyName));
        expect(web.length, `fonts that drew the h1: ${JSON.stringify(used)}`).toBeGreaterThan(0);
        expect(used.filter((f) => /CJK/.test(f.familyName)), 'no system CJK font').toEqual([]);
        // Real glyphs, not boxes: Korean text is not as wide as the same number of missing-glyph boxes.
        const widths = await page.evaluate(async () => {
          // The font is split by unicode-range: fetch the slices of these characters first (a page that
          // shows them would, too), or the fallback's boxes are measured while they load.
          await document.fonts.load('40px "Noto Sans KR Variable"', '한글뷁국어');
          const measure = (text: string) => {
            const span = document.createElement('span');
            span.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;font-size:40px;font-family:var(--dw-font)';
            span.textContent = text;
            document.body.append(span);
            const w = span.getBoundingClientRect().width;
            span.remove();
            return w;
          };
          // U+0378 is unassigned: every font draws its box (.notdef) for it.
          return { hangul: [measure('한'), measure('글'), measure('뷁')], box: measure('\u0378'), hangulText: measure('한국어'), boxes: measure('\u0378\u0378\u0378') };
        });
        for (const w of widths.hangul) expect(Math.abs(w - widths.box), `hangul ${w} vs box ${widths.box}`).toBeGreaterThan(1);
        expect(Math.abs(widths.hangulText - widths.boxes)).toBeGreaterThan(3);
        await shot(page, `newcomer-font-${route === '/' ? 'landing' : 'login'}-ko-${width}`);
      }
      // font-display: swap on every face; only slices of the characters shown were fetched.
      const displays = await page.evaluate(() => {
        const faces: FontFace[] = [];
        document.fonts.forEach((f) => faces.push(f));
        return faces.filter((f) => f.family.includes('Noto Sans KR')).map((f) => f.display);
      });
      expect(new Set(displays)).toEqual(new Set(['swap']));
      console.info(`ko landing+login at ${width} px: ${fonts.length} font files, ${(fontBytes / 1024).toFixed(0)} KiB`);
      expect(fonts.length).toBeLessThan(60);
      await page.context().close();
    });
  }

  test('bytes of font fetched by the landing page alone, per language', async ({ browser }) => {
    for (const width of WIDTHS) {
      for (const lang of LANGS) {
        const page = await newPage(browser, width, lang);
        await page.goto(p(lang, '/'));
        await expect(page.getByTestId('landing-page')).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready);
        // The browser's own account of what it fetched (bytes on the wire, as served).
        const fonts = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .filter((e) => e.name.endsWith('.woff2'))
            .map((e) => ({ name: e.name.split('/').pop() ?? '', bytes: (e as PerformanceResourceTiming).encodedBodySize })),
        );
        const bytes = fonts.reduce((sum, f) => sum + f.bytes, 0);
        console.info(`landing ${lang} at ${width} px: ${fonts.length} font files, ${(bytes / 1024).toFixed(1)} KiB`);
        expect(fonts.length).toBeGreaterThan(0);
        // The whole font is 3.7 MB in ~120 slices; the landing page fetches only the slices it shows.
        expect(bytes).toBeLessThan(lang === 'ko' ? 600 * 1024 : 100 * 1024);
        await page.context().close();
      }
    }
  });
});

for (const width of WIDTHS) {
  for (const lang of LANGS) {
    test.describe(`newcomer at ${width} px in ${lang}`, () => {
      test('sign-up errors name the field and the rule; login then has the e-mail filled in', async ({ browser }) => {
        const page = await newPage(browser, width, lang);
        await page.goto(p(lang, '/signup'));
        const email = uniqueEmail(`nc-${lang}-${width}`);
        await page.getByTestId('signup-name').fill('Newcomer');
        await page.getByTestId('signup-email').fill(email);
        await page.getByTestId('signup-password').fill('short');
        await page.getByTestId('signup-submit').click();
        await expect(page.getByTestId('signup-error')).toHaveText(T[lang].short);
        await shot(page, `newcomer-signup-short-${lang}-${width}`, { fullPage: false });
        // Nothing was created: the same e-mail signs up fine afterwards.
        await page.getByTestId('signup-password').fill(PASSWORD);
        await page.getByTestId('signup-submit').click();
        await expect(page).toHaveURL(new RegExp(`${lang === 'en' ? '/en' : ''}/login$`));
        await expect(page.getByTestId('login-email')).toHaveValue(email);
        await expect(page.getByTestId('login-password')).toBeFocused();
        // The sign-up toast starts below the header: none of the header's controls is under it.
        const toast = page.locator('[data-sonner-toast]').first();
        await expect(toast).toBeVisible();
        const toastBox = (await toast.boundingBox()) as Box;
        const headerBox = (await page.getByTestId('header').boundingBox()) as Box;
        expect(toastBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
        expect(await controlsUnder(page, toastBox, '[data-sonner-toaster]')).toEqual([]);
        await shot(page, `newcomer-login-prefilled-${lang}-${width}`, { fullPage: false });
        await page.getByTestId('login-password').fill(PASSWORD);
        await page.getByTestId('login-submit').click();
        await expect(page).toHaveURL(new RegExp(`${lang === 'en' ? '/en' : ''}/upscale$`));
        await page.context().close();
      });

      test('login validation is named too (malformed e-mail sent past the browser)', async ({ browser }) => {
        const page = await newPage(browser, width, lang);
        await page.goto(p(lang, '/login'));
        await page.getByTestId('login-form').evaluate((form) => form.setAttribute('novalidate', ''));
        await page.getByTestId('login-email').fill('not-an-email');
        await page.getByTestId('login-password').fill('whatever-1');
        await page.getByTestId('login-submit').click();
        await expect(page.getByTestId('login-error')).toHaveText(T[lang].email);
        await page.context().close();
      });

      test('signed-in visitors are sent on from /login and /signup, never off the site', async ({ browser }) => {
        const page = await newPage(browser, width, lang);
        await signUpAndLogIn(page, lang);
        const prefix = lang === 'en' ? '/en' : '';
        const cases: Array<[string, string]> = [
          ['/login', '/upscale'],
          ['/signup', '/upscale'],
          ['/login?next=/mypage', '/mypage'],
          ['/signup?next=%2Fpricing', '/pricing'],
          ['/login?next=//evil.example/x', '/upscale'],
          ['/login?next=https://evil.example/', '/upscale'],
          ['/login?next=/%5Cevil.example', '/upscale'],
          ['/login?next=/login', '/upscale'],
        ];
        for (const [from, to] of cases) {
          await page.goto(`${prefix}${from}`);
          await expect(page, from).toHaveURL(new RegExp(`^http://localhost:\\d+${prefix}${to.replace('?', '\\?')}$`));
          await expect(page.getByTestId('login-form')).toHaveCount(0);
          await expect(page.getByTestId('signup-form')).toHaveCount(0);
        }
        await page.context().close();
      });

      test('a session that ends during an upload: the expired modal alone, title and text agreeing', async ({ browser }) => {
        const page = await newPage(browser, width, lang);
        await signUpAndLogIn(page, lang);
        await page.goto(p(lang, '/upscale'));
        await expect(page.getByTestId('upscale-file-input')).toBeAttached();
        await page.context().clearCookies();
        await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama_910x1137.jpg'));
        const modal = page.getByTestId('session-expired-modal');
        await expect(modal).toBeVisible();
        await expect(modal.getByRole('heading')).toHaveText(T[lang].expiredTitle);
        await expect(modal).toContainText(T[lang].expiredText);
        // No second message: no error toast comes with the modal.
        await page.waitForTimeout(1500);
        await expect(page.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);
        await shot(page, `newcomer-session-expired-${lang}-${width}`, { fullPage: false });
        await page.context().close();
      });

      test('upscale: dates in KST, the size badge explained, the community button over no control', async ({ browser }) => {
        const page = await newPage(browser, width, lang);
        await signUpAndLogIn(page, lang);
        await page.goto(p(lang, '/upscale'));
        // Every entry of the signed-in header's menu is in view, My page last (no scrolling to find it).
        const nav = page.getByTestId('header-nav');
        const viewport = page.viewportSize()!.width;
        for (const link of await nav.locator('a, button').all()) {
          const box = (await link.boundingBox())!;
          expect(box.x, `${await link.innerText()} starts in view`).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, `${await link.innerText()} ends in view`).toBeLessThanOrEqual(viewport);
        }
        expect(await nav.evaluate((el) => el.scrollWidth - el.clientWidth), 'the menu does not scroll').toBeLessThanOrEqual(0);
        await expectFabClear(page, 'upscale before upload');
        await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama_910x1137.jpg'));
        const badge = page.getByTestId('upscale-size-badge');
        await expect(badge).toBeVisible({ timeout: 60_000 });
        // 910×1137 at the default scale is outside 2500–3100: WORST!, explained as not an error.
        await expect(badge).toHaveText('WORST!');
        const tip = page.getByTestId('upscale-size-badge-tip');
        await expect(tip).toBeHidden();
        await badge.hover();
        await expect(tip).toBeVisible();
        await expect(tip).toContainText(T[lang].worstTip);
        await shot(page, `newcomer-badge-tooltip-${lang}-${width}`, { fullPage: false });
        await page.mouse.move(0, 0);
        await badge.focus();
        await expect(tip).toBeVisible();
        await badge.blur();
        await expectFabClear(page, 'upscale after upload', { scan: 4000 });
        await shot(page, `newcomer-upscale-${lang}-${width}`, { fullPage: false });
        // The guide popup explains the badge too.
        await page.getByTestId('upscale-guide-button').click();
        await expect(page.getByTestId('upscale-guide-worst')).toContainText(T[lang].guideWorst);
        await shot(page, `newcomer-guide-${lang}-${width}`, { fullPage: false });
        await page.keyboard.press('Escape');
        // History dates carry the zone.
        await page.getByTestId('upscale-generate').click();
        const item = page.getByTestId('upscale-history').locator('time').first();
        await expect(item).toContainText(/KST$/, { timeout: 60_000 });
        await page.context().close();
      });

      test('the community button is over no control on the other pages', async ({ browser }) => {
        const page = await newPage(browser, width, lang);
        for (const route of ['/', '/pricing', '/login', '/signup', '/notice', '/terms']) {
          await page.goto(p(lang, route));
          await page.waitForLoadState('networkidle');
          // The terms' table of contents open: a column of links for the button to pass over.
          if (route === '/terms') await page.locator('details').first().evaluate((d) => d.setAttribute('open', ''));
          await expectFabClear(page, route, { scan: route === '/' || route === '/pricing' || route === '/terms' ? 3000 : 0 });
        }
        await signUpAndLogIn(page, lang);
        for (const route of ['/mypage', '/face-edit']) {
          await page.goto(p(lang, route));
          await page.waitForLoadState('networkidle');
          await expectFabClear(page, route);
        }
        await page.context().close();
      });
    });
  }
}
