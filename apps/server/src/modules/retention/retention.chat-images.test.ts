import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { aiMessages, aiThreads, uploads } from '../../db/schema';
import { keyFromImageUrl, storeDirectUpload } from '../uploads';
import { purgeExpiredContent, RETENTION_DAYS } from './retention.service';

const DAY = 86_400_000;

/**
 * Issue 21 point 11: the 30-day retention applies to chat images as to other content — the stored picture
 * is deleted and the message keeps its text without it (no signed URL to a missing object). Both databases.
 */
describe.each(TEST_DATABASES)('retention of chat images on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a chat image is deleted 30 days after upload and its message shows no picture; the text stays', async () => {
    const { cookie, user } = await signUpAndLogin(t.app);
    const db = t.ctx.database.db;
    // The chat's own path for an image (chat.service: storeDirectUpload kind chat-image, the key kept on the message).
    const key = keyFromImageUrl(t.ctx, (await storeDirectUpload(t.ctx, user.id, await makeJpeg(120, 90), 'chat-image')).imageUrl);
    const [thread] = await db.insert(aiThreads).values({ userId: user.id, kind: 'chat', title: 'look' }).returning();
    await db.insert(aiMessages).values({ threadId: thread!.id, userId: user.id, role: 'user', text: 'what is this?', imageKey: key });
    expect(await t.ctx.storage.exists(key)).toBe(true);

    await purgeExpiredContent(t.ctx, { now: new Date(Date.now() + (RETENTION_DAYS - 1) * DAY) });
    expect(await t.ctx.storage.exists(key)).toBe(true);

    await purgeExpiredContent(t.ctx, { now: new Date(Date.now() + (RETENTION_DAYS + 1) * DAY) });
    expect(await t.ctx.storage.exists(key)).toBe(false);
    expect((await db.select().from(uploads).where(eq(uploads.key, key)))[0]!.status).toBe('expired');
    const [message] = await db.select().from(aiMessages).where(eq(aiMessages.threadId, thread!.id));
    expect(message).toMatchObject({ text: 'what is this?', imageKey: null });
    const listed = (await t.app.inject({ url: `/api/ai/threads/${thread!.id}/messages`, headers: { cookie } })).json();
    expect(listed.messages[0]).toMatchObject({ text: 'what is this?', image_url: null });
  });
});
