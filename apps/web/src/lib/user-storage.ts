import type { User } from '@dewy/contracts';

/** The user kept in local storage under 'user' (spec 000 §3). */
export const USER_STORAGE_KEY = 'user';

export function parseStoredUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number') return value as User;
  } catch {
    // A corrupt entry counts as no user.
  }
  return null;
}

export function readStoredUser(): User | null {
  try {
    return parseStoredUser(window.localStorage.getItem(USER_STORAGE_KEY));
  } catch {
    return null;
  }
}

export function writeStoredUser(user: User | null): void {
  try {
    if (user) window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
    else window.localStorage.removeItem(USER_STORAGE_KEY);
  } catch {
    // Storage full or disabled: the in-memory user still works.
  }
}
