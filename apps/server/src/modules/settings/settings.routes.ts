import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BannedKeywordsResponseSchema, MaintenanceResponseSchema, safeText } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { bannedKeywords, maintenanceState, setBannedKeywords, setMaintenance } from './settings.service';

/** Maintenance switch and banned keywords (issue 13, 002 §7): reads public, changes the administrator's. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/maintenance', { config: { access: 'public' }, schema: { tags: ['settings'], response: { 200: MaintenanceResponseSchema } } }, async () => ({ success: true as const, ...(await maintenanceState(ctx)) }));

    app.put(
      '/api/admin/maintenance',
      { config: { access: 'admin' }, schema: { tags: ['settings'], body: z.object({ on: z.boolean() }).strict(), response: { 200: MaintenanceResponseSchema } } },
      async (req) => {
        const state = await setMaintenance(ctx, req.body.on);
        req.log.warn({ on: req.body.on }, 'maintenance switched by the administrator');
        return { success: true as const, ...state };
      },
    );

    app.get('/api/auth/banned-keywords', { config: { access: 'public' }, schema: { tags: ['settings'], response: { 200: BannedKeywordsResponseSchema } } }, async () => ({ success: true as const, keywords: await bannedKeywords(ctx) }));

    app.put(
      '/api/admin/banned-keywords',
      { config: { access: 'admin' }, schema: { tags: ['settings'], body: z.object({ keywords: z.array(safeText().max(64)).max(500) }).strict(), response: { 200: BannedKeywordsResponseSchema } } },
      async (req) => ({ success: true as const, keywords: await setBannedKeywords(ctx, req.body.keywords) }),
    );
  };
}
