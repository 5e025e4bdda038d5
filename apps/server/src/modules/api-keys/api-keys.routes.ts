import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKeyCreatedResponseSchema, ApiKeyCreateRequestSchema, ApiKeyListResponseSchema, ApiKeyRevokedResponseSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { userOf } from '../../lib/request-user';
import { createApiKey, listApiKeys, revokeApiKey, withWebhookSecret } from './api-keys.service';

/**
 * My Page's API keys (decision 040 §1): list, create (the secret answered once), revoke; each key with
 * the signing secret of its webhooks (§3). Session routes
 * of a verified account (`access: 'verified'`): an API key authenticates `/v1` only and never reaches
 * these, so a leaked key cannot mint or keep itself.
 */
export function apiKeysRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/account/api-keys', { config: { access: 'verified' }, schema: { tags: ['api-keys'], response: { 200: ApiKeyListResponseSchema } } }, async (req) => ({
      success: true as const,
      keys: (await listApiKeys(ctx.database.db, userOf(req).id)).map((k) => withWebhookSecret(ctx.secret, k)),
    }));

    app.post(
      '/api/account/api-keys',
      { config: { access: 'verified' }, schema: { tags: ['api-keys'], body: ApiKeyCreateRequestSchema.strict(), response: { 201: ApiKeyCreatedResponseSchema } } },
      async (req, reply) => {
        const created = await createApiKey(ctx.database.db, userOf(req).id, req.body);
        req.log.info({ apiKeyId: created.key.id }, 'api key created');
        reply.header('cache-control', 'no-store');
        return reply.code(201).send({ success: true as const, key: withWebhookSecret(ctx.secret, created.key), secret: created.secret });
      },
    );

    app.delete(
      '/api/account/api-keys/:id',
      { config: { access: 'verified' }, schema: { tags: ['api-keys'], params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }), response: { 200: ApiKeyRevokedResponseSchema } } },
      async (req) => {
        const key = await revokeApiKey(ctx.database.db, userOf(req).id, req.params.id);
        req.log.info({ apiKeyId: key.id }, 'api key revoked');
        return { success: true as const, key: withWebhookSecret(ctx.secret, key) };
      },
    );
  };
}
