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

/** Local storage key of a per-user entry: `<name>:<userId>` (one user's data never shows for another). */
export function userEntryKey(userId: number, name: string): string {
  return `${name}:${userId}`;
}

/** A per-user JSON entry, or null when absent, unreadable or storage is off. */
export function readUserEntry(userId: number, name: string): unknown {
  try {
    const raw = window.localStorage.getItem(userEntryKey(userId, name));
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

/** Store a per-user JSON entry (best effort: a full or disabled storage loses it). */
export function writeUserEntry(userId: number, name: string, value: unknown): void {
  try {
    window.localStorage.setItem(userEntryKey(userId, name), JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page falls back to what the server knows.
  }
}
