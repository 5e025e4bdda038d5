/**
 * Session state of spec 000 §4: the stored user is shown at once and verified with the server; re-synced
 * on tab visible (1 s debounce), on 'online' and every 120 s, never within 5 s of the last sync nor while
 * one runs; other tabs' storage changes apply here; 401/419 anywhere clears the user and opens the
 * session-expired modal.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SESSION_SYNC, type User } from '@dewy/contracts';
import { AUTH_INVALID_EVENT, type AuthInvalidDetail } from './api-client';
import { fetchAuthCheck, postLogout } from './auth-api';
import { USER_STORAGE_KEY, parseStoredUser, readStoredUser, writeStoredUser } from './user-storage';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionExpiredState {
  open: boolean;
  /** The server's SESSION_EXPIRED message; otherwise the page shows the catalogue wording. */
  message?: string;
}

export interface SessionValue {
  user: User | null;
  status: AuthStatus;
  expired: SessionExpiredState;
  /** Store a freshly signed-in user, then re-check the server for up-to-date plan and credits. */
  signIn: (user: User) => Promise<User | null>;
  signOut: () => Promise<void>;
  /** Sync now (ignores the 5 s spacing; joins a running sync) and return the updated user. */
  forceSync: () => Promise<User | null>;
  closeExpired: () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<User | null>(() => readStoredUser());
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [expired, setExpired] = useState<SessionExpiredState>({ open: false });
  const userRef = useRef<User | null>(user);
  const inFlight = useRef<Promise<User | null> | null>(null);
  const lastSyncAt = useRef(0);
  // Bumped by sign-in, sign-out and expiry: a sync that started before one of them must not undo it.
  const generation = useRef(0);
  // True from a sign-out's start until the server has ended the session and the user is cleared.
  const signingOut = useRef(false);

  const setUser = useCallback((next: User | null) => {
    userRef.current = next;
    writeStoredUser(next);
    setUserState(next);
    setStatus(next ? 'authenticated' : 'unauthenticated');
  }, []);

  const runSync = useCallback((): Promise<User | null> => {
    if (inFlight.current) return inFlight.current;
    lastSyncAt.current = Date.now();
    const startedIn = generation.current;
    const p = fetchAuthCheck()
      .then((res) => {
        if (startedIn !== generation.current) return userRef.current;
        if (res.isAuthenticated && res.user) {
          setUser(res.user);
          return res.user;
        }
        setUser(null);
        return null;
      })
      .catch((err: unknown) => {
        // Failed sync or check: logged only, user kept (000 §8). A 401/419 is handled by the event.
        console.warn('[session] sync failed', err);
        setStatus(userRef.current ? 'authenticated' : 'unauthenticated');
        return userRef.current;
      })
      .finally(() => {
        inFlight.current = null;
      });
    inFlight.current = p;
    return p;
  }, [setUser]);

  const maybeSync = useCallback(() => {
    if (!userRef.current) return;
    if (inFlight.current || Date.now() - lastSyncAt.current < SESSION_SYNC.minIntervalMs) return;
    void runSync();
  }, [runSync]);

  // First verification, then the periodic, visibility and online triggers.
  useEffect(() => {
    void runSync();
    let debounce: number | undefined;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      window.clearTimeout(debounce);
      debounce = window.setTimeout(maybeSync, SESSION_SYNC.debounceMs);
    };
    const interval = window.setInterval(maybeSync, SESSION_SYNC.periodicMs);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', maybeSync);
    return () => {
      window.clearTimeout(debounce);
      window.clearInterval(interval);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', maybeSync);
    };
  }, [runSync, maybeSync]);

  // Other tabs: a changed 'user' entry applies here.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== USER_STORAGE_KEY && e.key !== null) return;
      const next = parseStoredUser(e.key === null ? null : e.newValue);
      userRef.current = next;
      setUserState(next);
      setStatus(next ? 'authenticated' : 'unauthenticated');
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // 401/419 from any call.
  useEffect(() => {
    const onInvalid = (e: Event) => {
      const detail = (e as CustomEvent<AuthInvalidDetail>).detail;
      // Nothing expired when nobody is signed in, or while the visitor signs out: a call sent with the
      // old cookie that comes back after (or during) a deliberate logout must not open 'Login expired'
      // over the login page (found by the browser tests under load, issue 22).
      const deliberate = signingOut.current || userRef.current === null;
      generation.current += 1;
      setUser(null);
      if (deliberate) return;
      // The first expiry explains it; later 401s of calls already in flight (sent without the cookie
      // the server just cleared: 'please log in') must not replace that message.
      // Only the server's own expiry wording may replace the catalogue text: a plain 'please log in'
      // (UNAUTHENTICATED) under the title 'Login expired' would contradict it (issue 17).
      const message = detail?.code === 'SESSION_EXPIRED' ? detail.message : undefined;
      setExpired((prev) => (prev.open ? prev : { open: true, message }));
    };
    window.addEventListener(AUTH_INVALID_EVENT, onInvalid);
    return () => window.removeEventListener(AUTH_INVALID_EVENT, onInvalid);
  }, [setUser]);

  const signIn = useCallback(
    async (next: User) => {
      if (inFlight.current) await inFlight.current;
      generation.current += 1;
      setUser(next);
      setExpired({ open: false });
      return runSync();
    },
    [setUser, runSync],
  );

  const signOut = useCallback(async () => {
    signingOut.current = true;
    try {
      await postLogout();
    } catch (err) {
      console.warn('[session] logout call failed', err);
    } finally {
      generation.current += 1;
      setUser(null);
      signingOut.current = false;
    }
  }, [setUser]);

  const forceSync = useCallback(async () => {
    if (inFlight.current) await inFlight.current;
    return runSync();
  }, [runSync]);

  const closeExpired = useCallback(() => setExpired({ open: false }), []);

  const value = useMemo<SessionValue>(
    () => ({ user, status, expired, signIn, signOut, forceSync, closeExpired }),
    [user, status, expired, signIn, signOut, forceSync, closeExpired],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}
