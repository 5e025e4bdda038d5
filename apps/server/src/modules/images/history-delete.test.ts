import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { jobs, uploads } from '../../db/schema';
import { getBalance } from '../credits';

/**
 * Deleting history items (issue 28, point 12; decision 046): files gone from storage, the items gone from
 * every list, status and download, nothing refunded; all or nothing on bad requests; on both databases.
 */
describe.each(TEST_DATABASES)('history delete on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (cookie: string) => {
    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(320, 240));
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().imageUrl as string;
  };
  /** Runs an upscale of `image` to its end; @returns its job id, history id and result URL. */
  const retouch = async (cookie: string, image: string) => {
    const r = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image, scale_factor: 1 } } });
    expect(r.statusCode, r.body).toBe(200);
    const { jobId, imageId } = r.json() as { jobId: string; imageId: number };
    const done = await waitFor(async () => {
      const s = (await t.app.inject({ url: `/api/image/status/${jobId}`, headers: { cookie } })).json();
      return s.status === 'completed' ? s : undefined;
    }, 120_000); // a deadline for the job's end, not a margin (a saturated machine)
    return { jobId, id: imageId, resultUrl: done.imageUrl as string };
  };
  const del = (cookie: string, ids: unknown, lang = 'en') => t.app.inject({ method: 'POST', url: '/api/image/history/delete', headers: { cookie, 'accept-language': lang }, payload: { ids } });
  const history = async (cookie: string, userId: number) => (await t.app.inject({ url: `/api/image/history/${userId}?source=upscale`, headers: { cookie } })).json().images as { id: number }[];
  const keyOf = async (id: number) => (await t.ctx.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

  it('deletes one result (its file; the shared original stays), then the last item of that photo (the original goes too); nothing is refunded', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const image = await upload(cookie);
    const a = await retouch(cookie, image);
    const b = await retouch(cookie, image);
    const rowA = await keyOf(a.id);
    const balance = (await getBalance(t.ctx.database.db, user.id)).total;
    expect(await t.ctx.storage.exists(rowA.resultKey!)).toBe(true);

    const r = await del(cookie, [a.id]);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ success: true, deleted: [a.id] });
    expect(await t.ctx.storage.exists(rowA.resultKey!)).toBe(false);
    expect(await t.ctx.storage.exists(rowA.originalKey!)).toBe(true); // b still reads it
    expect((await history(cookie, user.id)).map((i) => i.id)).toEqual([b.id]);
    expect((await t.app.inject({ url: `/api/image/status/${a.jobId}`, headers: { cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/image/presign-download', headers: { cookie }, payload: { url: a.resultUrl } })).statusCode).toBe(404);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(balance);
    // Already deleted: not found, nothing else changes.
    expect((await del(cookie, [a.id])).statusCode).toBe(404);

    const rowB = await keyOf(b.id);
    expect((await del(cookie, [b.id])).json()).toEqual({ success: true, deleted: [b.id] });
    expect(await t.ctx.storage.exists(rowB.resultKey!)).toBe(false);
    expect(await t.ctx.storage.exists(rowB.originalKey!)).toBe(false);
    const [up] = await t.ctx.database.db.select().from(uploads).where(and(eq(uploads.userId, user.id), eq(uploads.key, rowB.originalKey!)));
    expect(up!.status).toBe('expired');
    expect(await history(cookie, user.id)).toEqual([]);
    expect((await getBalance(t.ctx.database.db, user.id)).total).toBe(balance);
  });

  it('bulk: several items in one call; a list with another user\'s item, an unknown id or bad values changes nothing', async () => {
    const a = await signUpAndLogin(t.app);
    const b = await signUpAndLogin(t.app);
    const mine = [await retouch(a.cookie, await upload(a.cookie)), await retouch(a.cookie, await upload(a.cookie))];
    const theirs = await retouch(b.cookie, await upload(b.cookie));
    for (const [ids, status, code] of [
      [[mine[0]!.id, theirs.id], 404, 'NOT_FOUND'],
      [[theirs.id], 404, 'NOT_FOUND'],
      [[mine[0]!.id, 2_000_000_000], 404, 'NOT_FOUND'],
      [[], 400, 'VALIDATION_FAILED'],
      [Array.from({ length: 101 }, (_, i) => i + 1), 400, 'VALIDATION_FAILED'],
      [[-1], 400, 'VALIDATION_FAILED'],
      ['1', 400, 'VALIDATION_FAILED'],
    ] as const) {
      const r = await del(a.cookie, ids);
      expect(r.statusCode, JSON.stringify(ids)).toBe(status);
      expect(r.json().code).toBe(code);
    }
    expect((await history(a.cookie, a.user.id)).length).toBe(2);
    expect((await history(b.cookie, b.user.id)).length).toBe(1);
    expect(await t.ctx.storage.exists((await keyOf(theirs.id)).resultKey!)).toBe(true);
    // signed out
    expect((await t.app.inject({ method: 'POST', url: '/api/image/history/delete', payload: { ids: [mine[0]!.id] } })).statusCode).toBe(401);

    const r = await del(a.cookie, [mine[1]!.id, mine[0]!.id, mine[1]!.id]);
    expect(r.json()).toEqual({ success: true, deleted: [mine[1]!.id, mine[0]!.id] });
    expect(await history(a.cookie, a.user.id)).toEqual([]);
  });

  it('ten deletes of one item at once: it is deleted once, no error but not-found', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const a = await retouch(cookie, await upload(cookie));
    const answers = await Promise.all(Array.from({ length: 10 }, () => del(cookie, [a.id])));
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 404), answers.map((r) => r.statusCode).join()).toBe(true);
    expect(answers.some((r) => r.statusCode === 200)).toBe(true);
    expect(await history(cookie, user.id)).toEqual([]);
    expect((await keyOf(a.id)).deletedAt).not.toBeNull();
  });

  it('an item still processing cannot be deleted (JOB_IN_PROGRESS, in the caller\'s language)', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const image = await upload(cookie);
    t.engine.mode = 'hang';
    try {
      const r = await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image, scale_factor: 1 } } });
      const id = r.json().imageId as number;
      const ko = await del(cookie, [id], 'ko');
      expect(ko.statusCode).toBe(409);
      expect(ko.json()).toMatchObject({ code: 'JOB_IN_PROGRESS', message: '처리 중인 작업은 삭제할 수 없습니다. 작업이 끝난 뒤 다시 시도해주세요.' });
      expect((await history(cookie, user.id)).map((i) => i.id)).toEqual([id]);
    } finally {
      t.engine.mode = 'ok';
    }
  });
});
