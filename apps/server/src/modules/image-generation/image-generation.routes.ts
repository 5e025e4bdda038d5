import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ImageGenerationCreatedSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { userOf } from '../../lib/request-user';
import { REFERENCE_FIELD, startGeneration } from './image-generation.service';

/** Largest reference file read from the request (bytes); Kling's own limit is 10 MB. */
const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;

/**
 * POST /api/kling/image-generation (spec 002 §7, issue 16): multipart with `character_reference_images`
 * (optional file), `num_images`, `prompt`, `aspect_ratio`. Answers 202 with the queued job's `taskId`
 * (poll GET /api/image/status/{taskId}). Not configured → 503 NOT_CONFIGURED, nothing stored or charged.
 */
export function imageGenerationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: MAX_REFERENCE_BYTES, files: 1, fields: 6, parts: 7, fieldSize: 16 * 1024 } });

    app.post(
      '/api/kling/image-generation',
      { config: { access: 'verified' }, schema: { tags: ['image-generation'], consumes: ['multipart/form-data'], response: { 202: ImageGenerationCreatedSchema } } },
      async (req, reply) => {
        const user = userOf(req);
        if (!ctx.config.vendors.kling) throw new AppError('NOT_CONFIGURED');
        if (!req.isMultipart()) throw new AppError('VALIDATION_FAILED', { message: 'multipart/form-data expected' });
        const fields: Record<string, string> = {};
        let file: { filename: string; bytes: Buffer } | null = null;
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== REFERENCE_FIELD || file) throw new AppError('VALIDATION_FAILED', { message: `unexpected file field ${part.fieldname}` });
            const bytes = await part.toBuffer().catch((err: { code?: string }) => {
              if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
              throw err;
            });
            if (part.file.truncated) throw new AppError('IMAGE_TOO_LARGE');
            file = { filename: part.filename, bytes };
          } else {
            fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
          }
        }
        const res = await startGeneration(ctx, user.id, fields, file, { idempotencyKey: req.headers['idempotency-key'] as string | undefined });
        req.log.info({ userId: user.id, jobId: res.taskId, cost: res.cost }, 'kling generation job created');
        return reply.code(202).send(res);
      },
    );
  };
}
