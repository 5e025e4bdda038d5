import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BatchCreateRequestSchema, BatchListResponseSchema, BatchResponseSchema, CreateUpscaleHeadersSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { getBalance } from '../credits';
import { batchZipEntries, cancelBatch, createBatch, getBatch, listBatches, resumeBatch, retryBatchPhoto } from './batches.service';
import { resultZipEntryNames, streamResultsZip } from './results-zip';

const BatchParams = z.object({ id: z.string().max(64) });

/**
 * Batch retouch on the page (issue 24, decision 040 §4), session routes of a verified account:
 * - `POST /api/batches {tool, options, photos[{image, name}]}` (Idempotency-Key): one job per photo
 *   through the kernel, charged in order until the credits run out (the rest refused);
 * - `GET /api/batches` (latest, for My Page), `GET /api/batches/:id` (photos, statuses, URLs);
 * - `POST /api/batches/:id/cancel` (pause: queued photos cancelled and refunded at once),
 *   `POST /api/batches/:id/resume` (cancelled and credit-refused photos started again, charged anew),
 *   `POST /api/batches/:id/photos/:position/retry` (one failed or refused photo);
 * - `GET /api/batches/:id/zip`: the finished results as one zip, streamed from storage, each entry named
 *   after the photo's original file name.
 * Progress of each photo comes over the job event stream (`/api/jobs/events`) by its job id.
 */
export function batchesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const answer = async (userId: number, batch: Awaited<ReturnType<typeof getBatch>>) => ({ success: true as const, batch, credits: (await getBalance(ctx.database.db, userId)).total });
  return async (app) => {
    app.post(
      '/api/batches',
      { config: { access: 'verified' }, schema: { tags: ['batches'], body: BatchCreateRequestSchema, headers: CreateUpscaleHeadersSchema, response: { 200: BatchResponseSchema } } },
      async (req) => {
        const user = userOf(req);
        const batch = await createBatch(ctx, user.id, req.body, req.headers['idempotency-key']);
        req.log.info({ userId: user.id, batchId: batch.id, photos: batch.photos.length, counts: batch.counts, charged: batch.charged }, 'batch created');
        return answer(user.id, batch);
      },
    );

    app.get('/api/batches', { config: { access: 'verified' }, schema: { tags: ['batches'], response: { 200: BatchListResponseSchema } } }, async (req) => ({
      success: true as const,
      batches: await listBatches(ctx, userOf(req).id),
    }));

    app.get('/api/batches/:id', { config: { access: 'verified' }, schema: { tags: ['batches'], params: BatchParams, response: { 200: BatchResponseSchema } } }, async (req) => {
      const user = userOf(req);
      return answer(user.id, await getBatch(ctx, user.id, req.params.id));
    });

    app.post('/api/batches/:id/cancel', { config: { access: 'verified' }, schema: { tags: ['batches'], params: BatchParams, response: { 200: BatchResponseSchema } } }, async (req) => {
      const user = userOf(req);
      const batch = await cancelBatch(ctx, user.id, req.params.id);
      req.log.info({ userId: user.id, batchId: batch.id, counts: batch.counts }, 'batch paused');
      return answer(user.id, batch);
    });

    app.post('/api/batches/:id/resume', { config: { access: 'verified' }, schema: { tags: ['batches'], params: BatchParams, response: { 200: BatchResponseSchema } } }, async (req) => {
      const user = userOf(req);
      const batch = await resumeBatch(ctx, user.id, req.params.id);
      req.log.info({ userId: user.id, batchId: batch.id, counts: batch.counts }, 'batch resumed');
      return answer(user.id, batch);
    });

    app.post(
      '/api/batches/:id/photos/:position/retry',
      { config: { access: 'verified' }, schema: { tags: ['batches'], params: BatchParams.extend({ position: z.coerce.number().int().min(0).max(1000) }), response: { 200: BatchResponseSchema } } },
      async (req) => {
        const user = userOf(req);
        return answer(user.id, await retryBatchPhoto(ctx, user.id, req.params.id, req.params.position));
      },
    );

    app.get('/api/batches/:id/zip', { config: { access: 'verified' }, schema: { tags: ['batches'], params: BatchParams } }, async (req, reply) => {
      const user = userOf(req);
      const { originals, keys } = await batchZipEntries(ctx, user.id, req.params.id);
      const names = resultZipEntryNames(originals, keys.map((k) => (k.endsWith('.png') ? 'png' : 'jpg')));
      const aborted = new AbortController();
      req.raw.on('close', () => aborted.abort());
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', `attachment; filename="dewy-batch-${req.params.id.slice(0, 8)}.zip"`);
      reply.header('cache-control', 'no-store');
      return reply.send(streamResultsZip(ctx.storage, keys.map((key, i) => ({ key, name: names[i]! })), { signal: aborted.signal }));
    });
  };
}
