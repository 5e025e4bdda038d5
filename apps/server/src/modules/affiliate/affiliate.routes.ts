import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AffiliateClickResponseSchema, AffiliateCodeResponseSchema, AffiliateEnabledResponseSchema, AffiliateStatsResponseSchema, safeText } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/rate-limit';
import { userOf } from '../../lib/request-user';
import { AFFILIATE_COOKIE, attributionCookie, ensureCode, ipHash, recordClick, sharerStats } from './affiliate.service';

/** An affiliate code as issued (12 base64url characters; a little slack for older codes). */
export const AffiliateCodeSchema = z.string().regex(/^[A-Za-z0-9_-]{8,32}$/);

/** The affiliate calls of spec 001 §7 plus the sharer's statistics (decision 013). */
export function affiliateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const secret = ctx.secret;
    const enabled = ctx.config.affiliate.enabled;

    app.get('/api/affiliate/enabled', { config: { access: 'public' }, schema: { tags: ['affiliate'], response: { 200: AffiliateEnabledResponseSchema } } }, async () => ({ enabled }));

    app.post(
      '/api/affiliate/ensure-code',
      { config: { access: 'user' }, schema: { tags: ['affiliate'], body: z.object({ ensure: z.boolean().optional() }).strict().optional(), response: { 200: AffiliateCodeResponseSchema } } },
      async (req) => {
        if (!enabled) throw new AppError('NOT_CONFIGURED', { message: 'affiliate programme disabled' });
        const code = await ensureCode(ctx.database.db, userOf(req).id);
        return { success: true as const, affiliate_code: code, link: `${ctx.config.publicUrl}/?aff=${code}` };
      },
    );

    app.get(
      '/api/affiliate/click',
      {
        config: { access: 'public', rateLimit: { max: 60, timeWindow: 3_600_000, keyGenerator: (req) => `affiliate:click:${clientKey(req.ip)}` } },
        schema: { tags: ['affiliate'], querystring: z.object({ aff: AffiliateCodeSchema, campaign: safeText().trim().max(64).optional() }), response: { 200: AffiliateClickResponseSchema } },
      },
      async (req, reply) => {
        if (!enabled) return { success: true as const, recorded: false };
        const campaign = req.query.campaign || null;
        const clickId = await recordClick(ctx.database.db, { code: req.query.aff, campaign, ipHash: ipHash(secret, req.ip) });
        if (clickId === null) return { success: true as const, recorded: false };
        // Last click wins within the window.
        reply.setCookie(AFFILIATE_COOKIE, attributionCookie(secret, { code: req.query.aff, clickId, campaign }), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: req.protocol === 'https',
          maxAge: Math.floor(ctx.config.affiliate.cookieMaxAgeMs / 1000),
        });
        return { success: true as const, recorded: true };
      },
    );

    app.get('/api/affiliate/stats', { config: { access: 'user' }, schema: { tags: ['affiliate'], response: { 200: AffiliateStatsResponseSchema } } }, async (req) => {
      const user = userOf(req);
      const stats = await sharerStats(ctx.database.db, user.id);
      return { success: true as const, enabled, ...stats };
    });
  };
}
