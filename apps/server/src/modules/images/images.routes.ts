import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HistoryQuerySchema,
  ImageDownloadQuerySchema,
  HistoryResponseSchema,
  JobStatusQuerySchema,
  JobStatusResponseSchema,
  PresignDownloadRequestSchema,
  PresignDownloadResponseSchema,
  GroupedHistoryQuerySchema,
  HistoryDeleteRequestSchema,
  HistoryDeleteResponseSchema,
  ResultToUploadRequestSchema,
  UploadResponseSchema,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { contentDispositionValue } from '../../providers/storage';
import { userOf } from '../../lib/request-user';
import { deleteHistoryItems } from './history-delete';
import { downloadBytes, jobStatus, listHistory, presignDownload, resultToUpload } from './images.service';

/** Job status, history and downloads of every tool's images (spec 001 §7), for the signed-in owner only. */
export function imagesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/image/status/:jobId',
      { config: { access: 'user' }, schema: { tags: ['images'], params: z.object({ jobId: z.string().uuid() }), querystring: JobStatusQuerySchema, response: { 200: JobStatusResponseSchema } } },
      async (req) => jobStatus(ctx, userOf(req).id, req.params.jobId),
    );

    app.get(
      '/api/image/history/:userId',
      {
        config: { access: 'user' },
        schema: { tags: ['images'], params: z.object({ userId: z.coerce.number().int() }), querystring: HistoryQuerySchema.extend(GroupedHistoryQuerySchema.shape), response: { 200: HistoryResponseSchema } },
      },
      async (req) => listHistory(ctx, userOf(req).id, req.params.userId, req.query),
    );

    // Send-to-upscale (issue 16, decision 024): a result of the caller becomes a new upload of the caller.
    app.post(
      '/api/image/result-to-upload',
      { config: { access: 'verified' }, schema: { tags: ['images'], body: ResultToUploadRequestSchema, response: { 200: UploadResponseSchema } } },
      async (req) => resultToUpload(ctx, userOf(req).id, req.body.url),
    );

    // Delete history items (issue 28, point 12): one, or My Page's selection; nothing refunded.
    app.post(
      '/api/image/history/delete',
      { config: { access: 'user' }, schema: { tags: ['images'], body: HistoryDeleteRequestSchema, response: { 200: HistoryDeleteResponseSchema } } },
      async (req) => deleteHistoryItems(ctx, userOf(req).id, req.body.ids),
    );

    app.post(
      '/api/image/presign-download',
      { config: { access: 'user' }, schema: { tags: ['images'], body: PresignDownloadRequestSchema, response: { 200: PresignDownloadResponseSchema } } },
      async (req) => presignDownload(ctx, userOf(req).id, req.body.url),
    );

    // 001 §7: the page sends this on load. Every image URL we hand out carries its own expiring
    // signature, also through the CDN (CDN_DOMAIN forwards path and query), so there is no cookie to
    // set: 204 with or without a CDN (decision 043).
    app.post(
      '/api/image/ensure-cloudfront-cookies',
      { config: { access: 'user' }, schema: { tags: ['images'], response: { 204: z.null().describe('Nothing to set: image URLs are signed (decision 043)') } } },
      async (_req, reply) => reply.code(204).send(null),
    );

    app.get(
      '/api/image/download',
      { config: { access: 'user' }, schema: { tags: ['images'], querystring: ImageDownloadQuerySchema } },
      async (req, reply) => {
        const file = await downloadBytes(ctx, userOf(req).id, req.query.url);
        // Set here, not only by the global headers: this route serves customer bytes.
        return reply
          .header('content-type', file.contentType)
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', contentDispositionValue(file.filename))
          .header('cache-control', 'private, no-store')
          .send(file.bytes);
      },
    );
  };
}
