import { fetchFeatureFlags } from './auth-api';
import { useSession } from './session';
import { createSharedResource } from './shared-resource';

// A failing flag call counts as on (resolves true); fresh for 5 minutes.
const useFlag = createSharedResource(
  async () => {
    try {
      return (await fetchFeatureFlags()).imageGenerationEnabled;
    } catch {
      return true;
    }
  },
  { staleMs: 5 * 60_000, retries: 0 },
);

/**
 * Image generation availability (spec 000 §4): on when the flag is true or the user is an administrator;
 * a failing flag call counts as on. `ready` is false until the flag call has settled. Who is an
 * administrator is the server's decision (`isAdmin` in the user payload, GUIDE §3a); the page never
 * derives it from the id. A user stored before `isAdmin` existed counts as not an administrator.
 */
export function useImageGenerationEnabled(): { enabled: boolean; ready: boolean } {
  const { user } = useSession();
  const query = useFlag();
  const flag = query.data ?? true;
  return { enabled: flag || user?.isAdmin === true, ready: query.status !== 'pending' };
}
