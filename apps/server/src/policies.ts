import type { UserRow } from './db/schema';

/**
 * Who may do what, in one place [Outline server/policies]. The page receives the outcome (`isAdmin` in
 * the user payload) and never re-derives it.
 */

/** The administrator: the first account created (user id 1), spec 000 §3. */
export function isAdmin(user: Pick<UserRow, 'id'> | null | undefined): boolean {
  return user?.id === 1;
}

/**
 * Whether the account's e-mail is verified (decision 020). Routes that spend the operator's money or disk
 * (vendor calls, uploads) need it: `access: 'verified'` (decision 032). Social accounts are verified at
 * creation (the provider vouched for the address).
 */
export function isVerified(user: Pick<UserRow, 'emailVerifiedAt'>): boolean {
  return user.emailVerifiedAt !== null;
}

/**
 * Who may call a route: anyone, a signed-in user, a signed-in user whose e-mail is verified (every route
 * that calls a paid vendor or stores an upload, decision 032), or the administrator.
 */
export type RouteAccess = 'public' | 'user' | 'verified' | 'admin';

/** Every access level, for the start-up check that each /api route declares one. */
export const ROUTE_ACCESS_LEVELS: readonly RouteAccess[] = ['public', 'user', 'verified', 'admin'];
