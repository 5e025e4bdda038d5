import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, makePng } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { noticeFiles, notices } from '../../db/schema';
import { sanitizeNoticeHtml } from './notice-html';

/** A multipart body with text fields and image files (repeated `files`). */
function form(fields: Record<string, string>, files: { name: string; type: string; bytes: Buffer }[] = [], fileField = 'files') {
  const boundary = `----dewy${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('notice HTML sanitizer (OWASP XSS filter-evasion cases)', () => {
  const evil = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<IMG SRC="javascript:alert(1);">',
    '<IMG SRC=JaVaScRiPt:alert(1)>',
    '<img src=`javascript:alert(1)`>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
    '<a href=" javascript:alert(1)">x</a>',
    '<svg/onload=alert(1)>',
    '<body onload=alert(1)>',
    '<iframe src="https://evil.example"></iframe>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<<SCRIPT>alert(1);//<</SCRIPT>',
    '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="data:image/svg+xml;base64,PHN2Zz4=">',
    '<form action="javascript:alert(1)"><input type=submit></form>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    '<img src="//evil.example/a.png">',
    '<img src="https://evil.example/track.png">',
    '<p onclick="alert(1)">x</p>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
  ];
  it.each(evil)('neutralises %s', (html) => {
    const out = sanitizeNoticeHtml(html);
    expect(out).not.toMatch(/<script|<iframe|<svg|<object|<embed|<form|<meta|<base|<style|\son\w+=|javascript:|data:|evil\.example/i);
  });

  it('keeps the allowed formatting, forces safe links and keeps only our own images', () => {
    const out = sanitizeNoticeHtml('<h2>점검 안내</h2><p><strong>굵게</strong> <a href="https://dewy.ai/x" target="_self">링크</a></p><ul><li>a</li></ul><img src="/api/notices/files/12" alt="a">');
    expect(out).toContain('<h2>점검 안내</h2>');
    expect(out).toContain('<a href="https://dewy.ai/x" target="_blank" rel="noopener noreferrer">링크</a>');
    expect(out).toContain('<img src="/api/notices/files/12" alt="a" />');
  });
});

describe.each(TEST_DATABASES)('notice board on $name', (kind) => {
  let t: TestApp;
  let admin: { cookie: string };
  let user: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signUpAndLogin(t.app); // the first account is id 1: the administrator
    user = await signUpAndLogin(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (cookie: string, fields: Record<string, string>, files: { name: string; type: string; bytes: Buffer }[] = []) => {
    const f = form(fields, files);
    return t.app.inject({ method: 'POST', url: '/api/notices', headers: { cookie, ...f.headers }, payload: f.payload });
  };

  it('only the administrator may write: every write route answers 403 "No write permission." to others, 401 to visitors, and changes nothing', async () => {
    const created = await create(admin.cookie, { title: '공지', content: '<p>내용</p>' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const f = form({ title: 'x', content: 'y' });
    const img = form({}, [{ name: 'a.png', type: 'image/png', bytes: await makePng(20, 20) }], 'image');
    const attempts = [
      { method: 'POST' as const, url: '/api/notices', headers: f.headers, payload: f.payload },
      { method: 'PUT' as const, url: `/api/notices/${id}`, payload: { title: 'hacked', content: '<p>x</p>' } },
      { method: 'DELETE' as const, url: `/api/notices/${id}` },
      { method: 'POST' as const, url: '/api/notices/images', headers: img.headers, payload: img.payload },
    ];
    for (const a of attempts) {
      const r = await t.app.inject({ ...a, headers: { ...(a.headers ?? {}), cookie: user.cookie, 'accept-language': 'en' } });
      expect(r.statusCode, `${a.method} ${a.url}`).toBe(403);
      expect(r.json()).toMatchObject({ code: 'NO_WRITE_PERMISSION', error: 'No write permission.' });
      const anon = await t.app.inject({ ...a, headers: a.headers ?? {} });
      expect(anon.statusCode).toBe(401);
    }
    const ko = await t.app.inject({ method: 'DELETE', url: `/api/notices/${id}`, headers: { cookie: user.cookie, 'accept-language': 'ko' } });
    expect(ko.json().error).toBe('작성 권한이 없습니다.');
    const row = (await t.ctx.database.db.select().from(notices).where(eq(notices.id, id)))[0];
    expect(row).toMatchObject({ title: '공지' });
  });

  it('creates with attachments (images only, metadata stripped), serves them publicly, edits, deletes with the files', async () => {
    const r = await create(admin.cookie, { title: ' 업데이트 ', content: '<p>새 기능</p><script>x</script>', pinned: '1' }, [
      { name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(64, 48) },
      { name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(64, 48) }, // duplicate: ignored
      { name: '../../etc/b.png', type: 'image/png', bytes: await makePng(32, 32) },
    ]);
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json().id as number;
    const detail = (await t.app.inject({ url: `/api/notices/${id}` })).json();
    expect(detail.notice).toMatchObject({ title: '업데이트', pinned: true, content: '<p>새 기능</p>' });
    expect(detail.files.map((f: { file_name: string }) => f.file_name)).toEqual(['a.jpg', 'b.png']);
    const file = await t.app.inject({ url: detail.files[0].file_url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');

    const edit = await t.app.inject({ method: 'PUT', url: `/api/notices/${id}`, headers: { cookie: admin.cookie }, payload: { title: '수정', content: '<p>바뀜</p><img src=x onerror=alert(1)>', pinned: false } });
    expect(edit.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/notices/${id}` })).json().notice).toMatchObject({ title: '수정', pinned: false, content: '<p>바뀜</p>' });

    const keys = (await t.ctx.database.db.select().from(noticeFiles).where(eq(noticeFiles.noticeId, id))).map((f) => f.storageKey);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/notices/${id}`, headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/notices/${id}` })).statusCode).toBe(404);
    for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(false);
  });

  it('refuses an empty title or content, a non-image attachment and more than 5 attachments, leaving no file behind', async () => {
    const before = (await t.ctx.database.db.select().from(noticeFiles)).length;
    const empty = await create(admin.cookie, { title: '  ', content: '<p>x</p>' });
    expect(empty.json()).toMatchObject({ code: 'NOTICE_INCOMPLETE' });
    const onlyScript = await create(admin.cookie, { title: 't', content: '<script>alert(1)</script>' });
    expect(onlyScript.json().code).toBe('NOTICE_INCOMPLETE');
    const notImage = await create(admin.cookie, { title: 't', content: '<p>x</p>' }, [{ name: 'x.png', type: 'image/png', bytes: Buffer.from('<html>not an image</html>') }]);
    expect(notImage.statusCode).toBe(400);
    const six = await Promise.all(Array.from({ length: 6 }, (_, i) => makePng(10 + i, 10)));
    const tooMany = await create(admin.cookie, { title: 't', content: '<p>x</p>' }, six.map((b, i) => ({ name: `${i}.png`, type: 'image/png', bytes: b })));
    expect(tooMany.statusCode).toBe(400);
    expect((await t.ctx.database.db.select().from(noticeFiles)).length).toBe(before);
  });

  it('lists 10 per page, pinned first, with totalPages; an inline image uploads and is kept in the content', async () => {
    const img = form({}, [{ name: 'paste.png', type: 'image/png', bytes: await makePng(40, 30) }], 'image');
    const up = await t.app.inject({ method: 'POST', url: '/api/notices/images', headers: { cookie: admin.cookie, ...img.headers }, payload: img.payload });
    expect(up.statusCode, up.body).toBe(200);
    const imageUrl = up.json().imageUrl as string;
    expect(imageUrl).toMatch(/^\/api\/notices\/files\/\d+$/);
    for (let i = 0; i < 12; i++) await create(admin.cookie, { title: `n${i}`, content: `<p>${i}</p><img src="${imageUrl}">` });
    const pinned = await create(admin.cookie, { title: 'pinned', content: '<p>p</p>', pinned: '1' });
    const page1 = (await t.app.inject({ url: '/api/notices?page=1' })).json();
    expect(page1.items).toHaveLength(10);
    expect(page1.items[0]).toMatchObject({ pinned: true });
    expect(page1.items.map((n: { id: number }) => n.id)).toContain(pinned.json().id);
    expect(page1.totalPages).toBeGreaterThanOrEqual(2);
    const last = (await t.app.inject({ url: `/api/notices?page=${page1.totalPages}` })).json();
    expect(last.items.length).toBeGreaterThan(0);
    const one = (await t.app.inject({ url: `/api/notices/${page1.items[1].id}` })).json();
    expect(one.notice.content).toContain(`<img src="${imageUrl}" />`);
    expect((await t.app.inject({ url: '/api/notices?page=0' })).statusCode).toBe(400);
  });
});
