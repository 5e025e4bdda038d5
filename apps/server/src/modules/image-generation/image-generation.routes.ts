import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ImageGenerationCreatedSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { readToolForm, createToolJob, userActor } from '../tool-jobs';
import { imageGenerationTool } from './image-generation.tool';

/**
 * POST /api/kling/image-generation (spec 002 §7, issue 16): multipart with `character_reference_images`
 * (optional file), `num_images`, `prompt`, `aspect_ratio`. Answers 202 with the queued job's `taskId`
 * (poll GET /api/image/status/{taskId}). The tool definition says which fields and file it takes and how
 * the file is checked; the kernel checks, stores the file and charges (decision 035). Not configured →
 * 503 NOT_CONFIGURED, nothing stored or charged.
 */
export function imageGenerationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { files: 1, fields: 6, parts: 7, fieldSize: 16 * 1024 } });

    app.post(
      '/api/kling/image-generation',
      { config: { access: 'verified' }, schema: { tags: ['image-generation'], consumes: ['multipart/form-data'], response: { 202: ImageGenerationCreatedSchema } } },
      async (req, reply) => {
        const user = userOf(req);
        const { input, files } = await readToolForm(req, imageGenerationTool);
        const res = await createToolJob(ctx, imageGenerationTool, userActor(user.id), input, { idempotencyKey: req.headers['idempotency-key'] as string | undefined, files });
        req.log.info({ userId: user.id, jobId: res.jobId, cost: res.cost }, 'kling generation job created');
        return reply.code(202).send(imageGenerationTool.present.created(res));
      },
    );
  };
}
