import type { ErrorCode } from '@dewy/contracts';
import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import type { RouteAccess } from '../policies';
import { AppError } from './app-error';

/*
 * What a route declares about its caller and reads back, below every module (decision 039): the
 * access hook of modules/auth resolves the session and sets `sessionUser`; route modules of every
 * layer (the ledger's and the kernel's included) read it through `userOf` without importing auth.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** Set by auth's `currentUser` once the session has been resolved for this request. */
    sessionUser?: UserRow | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route; required on every /api route (see modules/auth installAccessControl). */
    access?: RouteAccess;
    /** Error code for a signed-in caller refused by `access: 'admin'` (default FORBIDDEN), e.g. NO_WRITE_PERMISSION. */
    adminDeniedCode?: ErrorCode;
  }
}

/**
 * The user of a request on a route declared `access: 'user'`, `'verified'` or `'admin'` (resolved by the access hook
 * before the handler runs).
 * @throws AppError UNAUTHENTICATED when called on a request without a resolved user.
 */
export function userOf(req: FastifyRequest): UserRow {
  if (!req.sessionUser) throw new AppError('UNAUTHENTICATED');
  return req.sessionUser;
}
