import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { resolveSession, SESSION_COOKIE } from './session.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `currentUser` once the session has been resolved for this request. */
    sessionUser?: UserRow | null;
  }
}

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
  const found = await resolveSession(ctx.database.db, token, ctx.config.session);
  if (found.state !== 'valid') {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    throw new AppError('SESSION_EXPIRED');
  }
  req.sessionUser = found.user;
  return found.user;
}

/** The signed-in user. @throws AppError UNAUTHENTICATED (no cookie) or SESSION_EXPIRED. */
export async function requireUser(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<UserRow> {
  const u = await currentUser(ctx, req, reply);
  if (!u) throw new AppError('UNAUTHENTICATED');
  return u;
}
