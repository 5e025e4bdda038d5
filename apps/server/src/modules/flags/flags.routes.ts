import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FeatureFlagsResponseSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { maintenanceState } from '../settings/settings.service';

/**
 * GET /api/feature/flags (spec 000 §7): image generation stays off until a generation vendor is
 * configured; `paymentsEnabled` says whether the payments provider is (decision 012).
 */
export function flagsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/feature/flags', { config: { access: 'public' }, schema: { tags: ['flags'], response: { 200: FeatureFlagsResponseSchema } } }, async () => ({
      imageGenerationEnabled: ctx.config.vendors.imageGenerationConfigured,
      paymentsEnabled: Boolean(ctx.payments),
      maintenance: (await maintenanceState(ctx)).on,
    }));
  };
}
