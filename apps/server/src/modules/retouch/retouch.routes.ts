import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateUpscaleHeadersSchema, CreateUpscaleRequestSchema, CreateUpscaleResponseSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { createToolJob, userActor } from '../tool-jobs';
import { retouchTool } from './retouch.tool';

/** POST /api/runpod-upscale (spec 001 §3): starts a retouch + super-resolution job on the kernel. */
export function retouchRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/runpod-upscale',
      {
        config: { access: 'verified' },
        schema: { tags: ['upscale'], body: CreateUpscaleRequestSchema, headers: CreateUpscaleHeadersSchema, response: { 200: CreateUpscaleResponseSchema } },
      },
      async (req) => {
        const user = userOf(req);
        const res = await createToolJob(ctx, retouchTool, userActor(user.id), req.body.input, { idempotencyKey: req.headers['idempotency-key'] });
        req.log.info({ userId: user.id, jobId: res.jobId, cost: res.cost }, 'upscale job created');
        return res;
      },
    );
  };
}
