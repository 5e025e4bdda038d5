import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests (POST/PUT/PATCH/DELETE) whose Origin is not our own (CSRF defence in
 * depth beside SameSite=Lax cookies). Our own origin is the request's Host under its protocol, the
 * configured public URL, or one of `allowedOrigins`. Requests without Origin (non-browser clients,
 * same-origin navigations of old browsers) are refused only when Sec-Fetch-Site says cross-site.
 */
export function installOriginGuard(app: FastifyInstance, opts: { publicUrl: string; allowedOrigins: string[] }): void {
  const allowed = new Set([new URL(opts.publicUrl).origin, ...opts.allowedOrigins.map((o) => new URL(o).origin)]);
  app.addHook('onRequest', async (req) => {
    if (SAFE_METHODS.has(req.method)) return;
    const origin = req.headers.origin;
    if (origin) {
      if (origin === 'null') throw new AppError('FOREIGN_ORIGIN');
      const own = `${req.protocol}://${req.headers.host}`;
      if (origin !== own && !allowed.has(origin)) throw new AppError('FOREIGN_ORIGIN');
      return;
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') throw new AppError('FOREIGN_ORIGIN');
  });
}
