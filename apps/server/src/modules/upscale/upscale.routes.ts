import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateUpscaleRequestSchema,
  CreateUpscaleResponseSchema,
  HistoryQuerySchema,
  HistoryResponseSchema,
  JobStatusResponseSchema,
  PresignDownloadRequestSchema,
  PresignDownloadResponseSchema,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { requireUser } from '../auth/auth.guard';
import { downloadBytes, jobStatus, listHistory, presignDownload } from '../images/images.service';
import { createUpscaleJob } from './upscale.service';

/** Upscale job, status, history and download calls of spec 001 §7. */
export function upscaleRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/runpod-upscale',
      {
        schema: {
          tags: ['upscale'],
          body: CreateUpscaleRequestSchema,
          headers: z.object({ 'idempotency-key': z.string().min(8).max(200).optional() }).passthrough(),
          response: { 200: CreateUpscaleResponseSchema },
        },
      },
      async (req, reply) => {
        const user = await requireUser(ctx, req, reply);
        const res = await createUpscaleJob(ctx, user.id, req.body.input, { idempotencyKey: req.headers['idempotency-key'] });
        req.log.info({ userId: user.id, jobId: res.jobId, cost: res.cost }, 'upscale job created');
        return res;
      },
    );

    app.get(
      '/api/image/status/:jobId',
      { schema: { tags: ['images'], params: z.object({ jobId: z.string().uuid() }), response: { 200: JobStatusResponseSchema } } },
      async (req, reply) => {
        const user = await requireUser(ctx, req, reply);
        return jobStatus(ctx, user.id, req.params.jobId);
      },
    );

    app.get(
      '/api/image/history/:userId',
      { schema: { tags: ['images'], params: z.object({ userId: z.coerce.number().int() }), querystring: HistoryQuerySchema, response: { 200: HistoryResponseSchema } } },
      async (req, reply) => {
        const user = await requireUser(ctx, req, reply);
        return listHistory(ctx, user.id, req.params.userId, req.query);
      },
    );

    app.post(
      '/api/image/presign-download',
      { schema: { tags: ['images'], body: PresignDownloadRequestSchema, response: { 200: PresignDownloadResponseSchema } } },
      async (req, reply) => {
        const user = await requireUser(ctx, req, reply);
        return presignDownload(ctx, user.id, req.body.url);
      },
    );

    app.get('/api/image/download', { schema: { tags: ['images'], querystring: z.object({ url: z.string().min(1).max(4096) }) } }, async (req, reply) => {
      const user = await requireUser(ctx, req, reply);
      const file = await downloadBytes(ctx, user.id, req.query.url);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    });
  };
}
