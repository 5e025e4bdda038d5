import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { AppError } from './lib/app-error';
import { installErrorHandler } from './lib/error-handler';
import { installOriginGuard } from './lib/origin-guard';
import { authRoutes } from './modules/auth/auth.routes';
import { flagsRoutes } from './modules/flags/flags.routes';
import { registerFeatureRoutes } from './modules/routes';

export interface BuildAppOptions {
  /** Pino logger options, or false to silence (tests). */
  logger?: boolean | Record<string, unknown>;
}

/**
 * Builds the Fastify instance: cookies, zod validation and serialisation, OpenAPI at /api/docs, the
 * error handler, the Origin guard, every route module, and the built web app with SPA fallback.
 */
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: ctx.config.logLevel },
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdLogLabel: 'reqId',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (req.url.startsWith('/api/')) reply.header('cache-control', reply.getHeader('cache-control') ?? 'no-store');
  });

  await app.register(cookie);
  installErrorHandler(app);
  installOriginGuard(app, { publicUrl: ctx.config.publicUrl, allowedOrigins: ctx.config.allowedOrigins });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Dewy API', version: '0.1.0', description: 'AI portrait retouch and upscale, paid with credits.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'dewy_sid' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(authRoutes(ctx));
  await app.register(flagsRoutes(ctx));
  await registerFeatureRoutes(app, ctx);

  const dist = ctx.config.webDistDir;
  const hasWeb = fs.existsSync(path.join(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: dist, wildcard: false, index: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET' || !hasWeb) throw new AppError('NOT_FOUND');
    // SPA fallback: every page route is served the app shell; assets with hashes are cached above.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return app;
}
