import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isAdmin, isVerified, ROUTE_ACCESS_LEVELS, type RouteAccess } from '../../policies';
import { deleteSession, resolveSession, SESSION_COOKIE } from './session.service';

/*
 * `req.sessionUser`, `config.access` and `userOf` are declared in lib/request-user.ts, below every
 * module (decision 039): this hook fills what the routes of every layer read.
 */

/**
 * The signed-in user of a request, or null when the request carries no session cookie.
 * @throws AppError SESSION_EXPIRED when a cookie is present but its session is expired or unknown
 *   (the cookie is cleared on the reply).
 */
export async function currentUser(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<UserRow | null> {
  if (req.sessionUser !== undefined) return req.sessionUser;
  const token = req.cookies[SESSION_COOKIE];
  if (!token) {
    req.sessionUser = null;
    return null;
  }
  const found = await resolveSession(ctx.database.db, token, ctx.config.session, ctx.sessionCache);
  if (found.state !== 'valid' || found.user.deletionRequestedAt) {
    // An account whose deletion is pending is disabled (002 §9): a session that raced the request ends here.
    if (found.state === 'valid') await deleteSession(ctx.database.db, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    throw new AppError('SESSION_EXPIRED');
  }
  req.sessionUser = found.user;
  return found.user;
}

/** Paths under /api that are not our route modules' (the OpenAPI UI and its assets). */
const UNDECLARED_OK = /^\/api\/docs(\/|$)/;

/**
 * Route-level authorisation, declared on each route (`config.access`) and enforced by one `onRequest`
 * hook, before the body is parsed: `public` (anyone), `user` (a valid session: else 401
 * UNAUTHENTICATED / SESSION_EXPIRED), `verified` (a valid session of an account whose e-mail is verified:
 * else 403 EMAIL_NOT_VERIFIED — every route that calls a paid vendor or stores an upload, decision 032),
 * `admin` (the policy's administrator: else 403 FORBIDDEN).
 * Registering an /api route without a declaration throws at start-up, so none is public by accident.
 */
export function installAccessControl(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!url.startsWith('/api/') || UNDECLARED_OK.test(url)) return;
    const access = (route.config as { access?: RouteAccess } | undefined)?.access;
    if (!access || !ROUTE_ACCESS_LEVELS.includes(access)) {
      throw new Error(`route ${String(route.method)} ${url} does not declare config.access (${ROUTE_ACCESS_LEVELS.join(' | ')})`);
    }
  });
  app.addHook('onRequest', async (req, reply) => {
    const access = req.routeOptions.config.access;
    if (!access || access === 'public') return;
    const user = await currentUser(ctx, req, reply);
    if (!user) throw new AppError('UNAUTHENTICATED');
    if (access === 'admin' && !isAdmin(user)) throw new AppError(req.routeOptions.config.adminDeniedCode ?? 'FORBIDDEN');
    if (access === 'verified' && !isVerified(user)) throw new AppError('EMAIL_NOT_VERIFIED');
  });
}
