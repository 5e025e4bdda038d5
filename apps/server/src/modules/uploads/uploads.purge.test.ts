import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { uploads } from '../../db/schema';
import { PENDING_UPLOAD_LIFETIME_SECONDS, purgeStalePendingUploads } from './uploads.service';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('base64');

describe.each(TEST_DATABASES)('purge of stale presigned uploads on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const file = (key: string) => path.join(t.dataDir, 'files', key);
  const keyOf = (url: string) => new URL(url, 'http://localhost').searchParams.get('key')!;

  /** Presigns (and PUTs unless `put: false`) an upload; returns the presign answer and its row id. */
  async function presigned(cookie: string, bytes: Buffer, opts: { put?: boolean } = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/image/presign-upload',
      headers: { cookie },
      payload: { filename: 'a.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength: bytes.length, checksumSha256: sha256(bytes) },
    });
    expect(res.statusCode).toBe(200);
    const pre = res.json() as { url: string; key: string; requiredHeaders: Record<string, string> };
    if (opts.put !== false) expect((await put(pre, bytes)).statusCode).toBe(200);
    const row = (await t.ctx.database.db.select().from(uploads).where(eq(uploads.incomingKey, pre.key)))[0]!;
    return { ...pre, id: row.id };
  }
  const put = (pre: { url: string; requiredHeaders: Record<string, string> }, bytes: Buffer) =>
    t.app.inject({ method: 'PUT', url: pre.url, headers: { ...pre.requiredHeaders, 'content-length': String(bytes.length) }, payload: bytes });
  const confirm = (cookie: string, key: string) => t.app.inject({ method: 'POST', url: '/api/image/confirm-upload', headers: { cookie }, payload: { key } });
  /** Moves rows back in time past their URL's expiry and the grace. */
  const backdate = (ids: number[], seconds = PENDING_UPLOAD_LIFETIME_SECONDS + 60) =>
    t.ctx.database.db
      .update(uploads)
      .set({ createdAt: sql`now() - make_interval(secs => ${seconds})` })
      .where(inArray(uploads.id, ids));

  it('deletes expired pending and refused uploads with their files, clears replayed incoming objects of confirmed ones, and keeps the rest', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const jpeg = await makeJpeg(200, 150);
    const html = Buffer.from('<html><script>alert(1)</script></html>');

    const expiredPut = await presigned(a.cookie, jpeg);
    const expiredNeverPut = await presigned(a.cookie, Buffer.from('never sent'), { put: false });
    const fresh = await presigned(a.cookie, await makeJpeg(100, 100));
    const confirmed = await presigned(a.cookie, await makeJpeg(120, 90));
    const conf = (await confirm(a.cookie, confirmed.key)).json();
    const storedKey = keyOf(conf.imageUrl);
    expect((await put(confirmed, await makeJpeg(120, 90))).statusCode).toBe(200); // replayed PUT after confirm
    const refused = await presigned(a.cookie, html);
    expect((await confirm(a.cookie, refused.key)).json().code).toBe('UNSUPPORTED_IMAGE_TYPE');
    expect((await put(refused, html)).statusCode).toBe(200); // replayed PUT after the refusal
    const otherUser = await presigned(b.cookie, jpeg);
    for (const k of [expiredPut.key, confirmed.key, refused.key, otherUser.key, fresh.key, storedKey]) expect(fs.existsSync(file(k)), k).toBe(true);

    await backdate([expiredPut.id, expiredNeverPut.id, confirmed.id, refused.id, otherUser.id]);
    // An expired upload can no longer be confirmed, even before the purge has run.
    expect((await confirm(b.cookie, otherUser.key)).json().code).toBe('UPLOAD_EXPIRED');

    expect(await purgeStalePendingUploads(t.ctx)).toEqual({ purged: 4, cleared: 1 });
    const rows = await t.ctx.database.db.select().from(uploads).where(inArray(uploads.userId, [a.user.id, b.user.id]));
    expect(rows.map((r) => [r.id, r.status, r.incomingKey]).sort()).toEqual(
      [
        [fresh.id, 'pending', fresh.key],
        [confirmed.id, 'confirmed', null],
      ].sort(),
    );
    for (const k of [expiredPut.key, confirmed.key, refused.key, otherUser.key]) expect(fs.existsSync(file(k)), k).toBe(false);
    expect(fs.existsSync(file(fresh.key))).toBe(true);
    // The confirmed picture stays readable.
    expect(fs.existsSync(file(storedKey))).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie: a.cookie }, payload: { url: conf.imageUrl } })).statusCode).toBe(200);
    // Idempotent: a second round finds nothing.
    expect(await purgeStalePendingUploads(t.ctx)).toEqual({ purged: 0, cleared: 0 });
    // The fresh upload still confirms.
    expect((await confirm(a.cookie, fresh.key)).statusCode).toBe(200);
  });

  it('frees the pending cap: a user at the cap can presign again once the purge has run', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const announce = (contentLength: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/image/presign-upload',
        headers: { cookie },
        payload: { filename: 'big.jpg', mime: 'image/jpeg', kind: 'upscale-original', contentLength, checksumSha256: sha256(Buffer.from('x')) },
      });
    for (let i = 0; i < 4; i++) expect((await announce(UPLOAD_LIMITS.maxBytes)).statusCode).toBe(200);
    const refused = await announce(1);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().details).toMatchObject({ pendingBytes: 4 * UPLOAD_LIMITS.maxBytes, maxPendingBytes: UPLOAD_LIMITS.maxPendingBytesPerUser });
    const ids = (await t.ctx.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, user.id))).map((r) => r.id);
    // Within the lifetime nothing is purged.
    await backdate(ids, PENDING_UPLOAD_LIFETIME_SECONDS - 60);
    await purgeStalePendingUploads(t.ctx);
    expect((await announce(1)).statusCode).toBe(429);
    await backdate(ids);
    await purgeStalePendingUploads(t.ctx);
    expect((await announce(UPLOAD_LIMITS.maxBytes)).statusCode).toBe(200);
  });

  it('keeps a row whose object cannot be deleted, for the next round, and reports the failure', async () => {
    const { cookie } = await signUpAndLogin(t.app);
    const stuck = await presigned(cookie, await makeJpeg(64, 64));
    const gone = await presigned(cookie, await makeJpeg(64, 64));
    await backdate([stuck.id, gone.id]);
    const realDelete = t.ctx.storage.delete.bind(t.ctx.storage);
    t.ctx.storage.delete = async (key: string) => {
      if (key === stuck.key) throw new Error('storage unreachable');
      return realDelete(key);
    };
    try {
      await expect(purgeStalePendingUploads(t.ctx)).rejects.toThrow(/1 of \d+ rows failed \(storage unreachable\)/);
    } finally {
      t.ctx.storage.delete = realDelete;
    }
    const left = await t.ctx.database.db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, [stuck.id, gone.id]));
    expect(left.map((r) => r.id)).toEqual([stuck.id]);
    expect(await purgeStalePendingUploads(t.ctx)).toMatchObject({ purged: 1 });
    expect(fs.existsSync(file(stuck.key))).toBe(false);
  });
});
