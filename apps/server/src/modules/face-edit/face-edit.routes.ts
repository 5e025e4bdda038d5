import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateFaceEditRequestSchema, CreateUpscaleHeadersSchema, ToolJobCreatedSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { createToolJob, userActor } from '../tool-jobs';
import { faceEditTool } from './face-edit.tool';

/** POST /api/runpod-face-edit (spec 001 §7): starts a face-edit job on the kernel. */
export function faceEditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/runpod-face-edit',
      {
        config: { access: 'verified' },
        schema: { tags: ['face-edit'], body: CreateFaceEditRequestSchema, headers: CreateUpscaleHeadersSchema, response: { 200: ToolJobCreatedSchema } },
      },
      async (req) => {
        const user = userOf(req);
        const res = await createToolJob(ctx, faceEditTool, userActor(user.id), req.body.input, { idempotencyKey: req.headers['idempotency-key'] });
        req.log.info({ userId: user.id, jobId: res.jobId, cost: res.cost }, 'face-edit job created');
        return res;
      },
    );
  };
}
