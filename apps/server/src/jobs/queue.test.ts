import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { TEST_DATABASES } from '../../test/helpers/databases';
import { waitFor } from '../../test/helpers/wait';
import { JOB_SCHEMAS } from './job-map';
import { createJobQueue } from './queue';

describe.each(TEST_DATABASES)('job queue shutdown on $name', (kind) => {
  const toClose: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of toClose) await c().catch(() => {});
  });

  it('stop resolves only when no handler can still write: one that outlives the stop timeout is aborted (SHUTDOWN) and awaited', async () => {
    const db = await kind.open();
    toClose.push(() => db.dispose());
    const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    let started = false;
    let ended = false;
    let reason: unknown;
    const queue = await createJobQueue(
      db,
      { 'retention-purge': JOB_SCHEMAS['retention-purge'] },
      {
        'retention-purge': {
          expireInSeconds: 60,
          async handle(_payload, { signal }) {
            started = true;
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, 30_000); // far past the stop's timeout
              signal.addEventListener('abort', () => {
                clearTimeout(timer);
                reason = signal.reason;
                resolve();
              });
            });
            // what a handler does after its work: record the outcome in the database
            await db.executor.executeSql('select 1', []);
            ended = true;
          },
        },
      },
      { defaultExpireInSeconds: 60, log },
    );
    await queue.startWorkers({ concurrency: 1, pollingIntervalSeconds: 0.5 });
    await queue.enqueue('retention-purge', {});
    await waitFor(async () => started || undefined, 15_000);
    const t0 = Date.now();
    await queue.stop({ graceful: true, timeoutMs: 1500 });
    expect(ended, 'the handler finished before stop resolved').toBe(true);
    expect(reason).toMatchObject({ message: 'SHUTDOWN', failureCode: 'JOB_LOST' });
    expect(Date.now() - t0).toBeLessThan(15_000);
    // closing the database right away is safe: nothing of the queue writes to it any more (an unhandled
    // rejection here would fail the run)
    await db.dispose();
    toClose.length = 0;
  });
});
