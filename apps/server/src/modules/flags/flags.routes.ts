import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FeatureFlagsResponseSchema, SiteInfoResponseSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { maintenanceState } from '../settings';

/**
 * GET /api/feature/flags (spec 000 §7): `imageGenerationEnabled` is true exactly when the engine
 * registry has an `image-generation` engine — Kling, the generation tool's vendor (002 §2), configured
 * by KLING_ACCESS_KEY and KLING_SECRET_KEY (decisions 024, 035); `paymentsEnabled` says whether the payments provider is (decision 012).
 * GET /api/site-info (issue 13): the operator's business details and support e-mail from the
 * configuration (`COMPANY_*`, `SUPPORT_EMAIL`), null where unset.
 */
export function flagsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/feature/flags', { config: { access: 'public' }, schema: { tags: ['flags'], response: { 200: FeatureFlagsResponseSchema } } }, async () => ({
      imageGenerationEnabled: ctx.engines.has('image-generation'),
      paymentsEnabled: Boolean(ctx.payments),
      maintenance: (await maintenanceState(ctx)).on,
    }));

    app.get('/api/site-info', { config: { access: 'public' }, schema: { tags: ['flags'], response: { 200: SiteInfoResponseSchema } } }, async () => ({
      success: true as const,
      company: { ...ctx.config.site.company },
      supportEmail: ctx.config.site.supportEmail,
    }));
  };
}
