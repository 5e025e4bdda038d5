import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CREDIT_HISTORY_PAGE, CreditHistoryResponseSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { creditHistory } from './credits.history';

/** GET /api/credits/history?limit=&offset= — the caller's own ledger, newest first (issue 10). */
export function creditsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/credits/history',
      {
        config: { access: 'user' },
        schema: {
          tags: ['credits'],
          querystring: z.object({
            limit: z.coerce.number().int().min(1).max(CREDIT_HISTORY_PAGE.max).default(CREDIT_HISTORY_PAGE.default),
            offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
          }),
          response: { 200: CreditHistoryResponseSchema },
        },
      },
      async (req) => creditHistory(ctx.database.db, userOf(req).id, req.query),
    );
  };
}
