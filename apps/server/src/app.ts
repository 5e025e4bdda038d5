import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { fastifyTrustProxy, type AppConfig } from './config';
import type { AppContext } from './context';
import { AppError } from './lib/app-error';
import { installErrorHandler } from './lib/error-handler';
import { installSecurityHeaders, webCacheControl } from './lib/http-headers';
import { createLogger } from './lib/logger';
import { AccessLog } from './lib/request-log';
import { installOriginGuard } from './lib/origin-guard';
import { registerRateLimit } from './lib/rate-limit';
import { registerRoutes } from './routes';

export interface BuildAppOptions {
  /**
   * false silences the log (tests); otherwise the level (default LOG_LEVEL) and destination (default
   * stdout; tests pass an in-memory stream). The redaction of lib/log-redaction.ts always applies.
   */
  logger?: false | { level?: string; stream?: DestinationStream };
}

/**
 * Builds the Fastify instance: security headers, a log that never holds secrets, cookies, zod
 * validation and serialisation, OpenAPI at /api/docs, the error handler, the Origin guard, every route
 * module, and the built web app with SPA fallback (shell `no-cache`, hashed assets immutable).
 */
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger === false
      ? { logger: false }
      : { loggerInstance: opts.logger ? createLogger({ logLevel: (opts.logger.level ?? ctx.config.logLevel) as AppConfig['logLevel'] }, { stream: opts.logger.stream }) : ctx.log }),
    logController: new AccessLog(),
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  // First, so that every answer (errors and 404s included) carries the headers.
  await installSecurityHeaders(app, { storageHosts: ctx.storage.storageHosts, cdnDomain: ctx.config.storage.cdnDomain, googleSignIn: Boolean(ctx.config.social.google) });
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
      // `/api`: the page's session cookie; `/v1`: an API key of My Page as a bearer token (decision 040).
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'dewy_sid' }, apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'dewy_sk_…' } } },
    },
    // Route schemas → JSON Schema; schemas registered with an id (zod's global registry) become
    // components/schemas that the routes' $refs point to. The committed contract is this document
    // (docs/openapi.json, `npm run openapi`, decision 038).
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await registerRateLimit(app, ctx.database.db); // before the routes: they opt in with config.rateLimit
  // The session cache serves only once it listens for invalidations (decision 026).
  await ctx.sessionCache.startSync(ctx.database);
  app.addHook('onClose', async () => {
    app.log.info({ sessionCache: ctx.sessionCache.stats }, 'session cache');
    await ctx.sessionCache.close();
  });
  await registerRoutes(app, ctx);

  const dist = ctx.config.webDistDir;
  const hasDist = fs.existsSync(dist);
  if (hasDist) {
    // wildcard: files are looked up per request, so a rebuilt web app is served without a restart;
    // a missing file falls through to the not-found handler below.
    // Cache-Control per file (webCacheControl): send's own header would give the shell a max-age too.
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      cacheControl: false,
      setHeaders: (res, filePath) => res.setHeader('cache-control', webCacheControl(path.relative(dist, filePath))),
    });
  }
  const sendShell = (reply: FastifyReply) => reply.sendFile('index.html');
  if (hasDist) app.get('/', { schema: { hide: true } }, (_req, reply) => sendShell(reply));
  app.setNotFoundHandler((req, reply) => {
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/') && !req.url.startsWith('/v1/') && !req.url.startsWith('/assets/');
    if (!isPage || !hasDist || !fs.existsSync(path.join(dist, 'index.html'))) throw new AppError('NOT_FOUND');
    // SPA fallback: every page route gets the app shell (never cached, so a new build is picked up).
    return sendShell(reply);
  });
  return app;
}
