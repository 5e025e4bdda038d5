import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateUpscaleHeadersSchema,
  IMAGE_EDIT,
  SeedreamConfigResponseSchema,
  SeedreamGenerateQuerySchema,
  SeedreamGenerateRequestSchema,
  SeedreamGenerateResponseSchema,
  SeedreamHistoryQuerySchema,
  SeedreamHistoryResponseSchema,
  SeedreamStatusResponseSchema,
  safeText,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { findToolJob, toolJobsPage, createToolJob, userActor } from '../tool-jobs';
import { imageEditTool } from './image-edit.tool';

/**
 * Image edit routes (spec 002 §7, issue 16): generate (a job on the kernel: always queued; `?async=1`
 * as the page sends it, the answer is the same without it), status and history (the kernel finds the
 * caller's rows, the tool's presenter shapes them: decision 035), and our config call that tells the
 * page whether the vendor is configured (the engine registry's `image-edit`).
 */
export function imageEditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/seedream/config', { config: { access: 'public' }, schema: { tags: ['image-edit'], response: { 200: SeedreamConfigResponseSchema } } }, async () => ({
      success: true as const,
      configured: ctx.engines.has(imageEditTool.engine),
      costPerImage: IMAGE_EDIT.costPerImage,
      autoPromptCost: IMAGE_EDIT.autoPromptCost,
    }));

    app.post(
      '/api/seedream/generate',
      {
        config: { access: 'verified' },
        schema: { tags: ['image-edit'], querystring: SeedreamGenerateQuerySchema, body: SeedreamGenerateRequestSchema, headers: CreateUpscaleHeadersSchema, response: { 200: SeedreamGenerateResponseSchema } },
      },
      async (req) => {
        const user = userOf(req);
        const { async: _async, ...input } = req.body;
        const res = await createToolJob(ctx, imageEditTool, userActor(user.id), input, { idempotencyKey: req.headers['idempotency-key'] });
        req.log.info({ userId: user.id, jobId: res.jobId, cost: res.cost }, 'image-edit job created');
        return imageEditTool.present.created(res);
      },
    );

    app.get(
      '/api/seedream/status/:id',
      { config: { access: 'user' }, schema: { tags: ['image-edit'], params: z.object({ id: safeText().min(1).max(200) }), response: { 200: SeedreamStatusResponseSchema } } },
      async (req) => imageEditTool.present.status(ctx, await findToolJob(ctx, imageEditTool, userOf(req).id, req.params.id)),
    );

    app.get(
      '/api/seedream/history',
      { config: { access: 'user' }, schema: { tags: ['image-edit'], querystring: SeedreamHistoryQuerySchema, response: { 200: SeedreamHistoryResponseSchema } } },
      async (req) => imageEditTool.present.history(ctx, await toolJobsPage(ctx, userOf(req).id, { source: imageEditTool.source, ...req.query }), req.query),
    );
  };
}
