import type { UserRow } from './db/schema';

/**
 * Who may do what, in one place [Outline server/policies]. The page receives the outcome (`isAdmin` in
 * the user payload) and never re-derives it.
 */

/** The administrator: the first account created (user id 1), spec 000 §3. */
export function isAdmin(user: Pick<UserRow, 'id'> | null | undefined): boolean {
  return user?.id === 1;
}

/** Who may call a route: anyone, a signed-in user, or the administrator. */
export type RouteAccess = 'public' | 'user' | 'admin';
