import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema';
import { createLatchEngine, latchTool, withLatchTool, type LatchEngine } from '../../../test/fakes/latch-tool';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { createToolJob, userActor } from './tool-jobs.service';

/**
 * Fair queueing per caller (decision 035), decided by events only: the latch engine's jobs block until
 * the test releases them one at a time (one worker: concurrency 1), and the order in which they START
 * is the verdict.
 */
describe.each(TEST_DATABASES)('fair queueing per caller on $name', (kind) => {
  let t: TestApp;
  let latch: LatchEngine;
  beforeAll(async () => {
    latch = createLatchEngine();
    t = await createTestApp(kind, {}, { workers: true, ...withLatchTool(latch) });
  });
  beforeEach(() => {
    latch.close();
  });
  afterEach(async () => {
    latch.releaseAll(); // whatever is still blocked (a failed test) runs to its end
    await waitFor(async () => {
      const rows = await t.ctx.database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.jobName, 'test-latch'));
      return rows.every((r) => r.status !== 'processing') ? true : undefined;
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Releases the running job and waits for the next one to start; @returns who started. */
  async function releaseAndNext(): Promise<number> {
    const n = latch.started.length;
    latch.releaseOne();
    return (await latch.startedCount(n + 1))[n]!.userId;
  }
  const job = (userId: number, n: number) => createToolJob(t.ctx, latchTool, userActor(userId), { n });

  it("one caller's 20 queued jobs hold another caller's single job back by at most the one running (one worker)", async () => {
    const a = (await signUpAndLogin(t.app)).user.id;
    const b = (await signUpAndLogin(t.app)).user.id;
    const base = latch.started.length;
    const aJobs: string[] = [];
    for (let i = 0; i < 20; i++) aJobs.push((await job(a, i)).jobId);
    const [first] = (await latch.startedCount(base + 1)).slice(base);
    expect(first).toMatchObject({ userId: a, jobId: aJobs[0] });

    // B queues one job while A's first runs and 19 of A's wait.
    const bJob = await job(b, 0);
    const order = [await releaseAndNext()];
    while (order.at(-1) !== b) order.push(await releaseAndNext());
    // B's job started next: no job of A's started between B's enqueue and B's start.
    expect(order).toEqual([b]);

    // The rest of A's jobs then run in A's own order, and every job completes.
    for (let i = 1; i < 20; i++) await releaseAndNext();
    latch.releaseOne();
    const starts = latch.started.slice(base);
    expect(starts.map((s) => s.jobId)).toEqual([aJobs[0], bJob.jobId, ...aJobs.slice(1)]);
    const rows = await waitFor(async () => {
      const r = await t.ctx.database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.jobName, 'test-latch'));
      return r.every((x) => x.status !== 'processing') ? r : undefined;
    });
    expect(rows.map((r) => r.status)).toEqual(Array(21).fill('completed'));
  });

  it('a caller who keeps one job coming takes turns with a waiting batch instead of starving it', async () => {
    const a = (await signUpAndLogin(t.app)).user.id;
    const b = (await signUpAndLogin(t.app)).user.id;
    const base = latch.started.length;
    for (let i = 0; i < 8; i++) await job(a, i);
    await latch.startedCount(base + 1);
    // B always has its next job queued by the time its previous one starts (4 in all).
    let bQueued = 1;
    await job(b, 0);
    const owners: number[] = [a];
    for (let i = 0; i < 11; i++) {
      const who = await releaseAndNext();
      owners.push(who);
      if (who === b && bQueued < 4) {
        await job(b, bQueued);
        bQueued++;
      }
    }
    latch.releaseAll();
    // A's batch and B's stream alternate while both have work; then A's batch finishes.
    expect(owners.map((u) => (u === a ? 'A' : 'B')).join('')).toBe('ABABABABAAAA');
  });
});
