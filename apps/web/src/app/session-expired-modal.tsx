import { Suspense, lazy } from 'react';
import { useSession } from '../lib/session';

const SessionExpiredDialog = lazy(() => import('./session-expired-dialog').then((m) => ({ default: m.SessionExpiredDialog })));

/** Session-expired modal (spec 000 §2/§8): mounted, and its chunk fetched, only while a session has expired. */
export function SessionExpiredModal() {
  const { expired } = useSession();
  if (!expired.open) return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiredDialog />
    </Suspense>
  );
}
