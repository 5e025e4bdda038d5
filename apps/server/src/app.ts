import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
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
  const hasDist = fs.existsSync(dist);
  if (hasDist) {
    // wildcard: files are looked up per request, so a rebuilt web app is served without a restart;
    // a missing file falls through to the not-found handler below.
    await app.register(fastifyStatic, { root: dist, index: false, maxAge: '1h' });
  }
  const sendShell = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html');
  if (hasDist) app.get('/', { schema: { hide: true } }, (_req, reply) => sendShell(reply));
  app.setNotFoundHandler((req, reply) => {
    const isPage = req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith('/assets/');
    if (!isPage || !hasDist || !fs.existsSync(path.join(dist, 'index.html'))) throw new AppError('NOT_FOUND');
    // SPA fallback: every page route gets the app shell (never cached, so a new build is picked up).
    return sendShell(reply);
  });
  return app;
}
