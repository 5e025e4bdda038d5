import { useQuery } from '@tanstack/react-query';
import { fetchFeatureFlags } from './auth-api';
import { useSession } from './session';

/**
 * Image generation availability (spec 000 §4): on when the flag is true or the user is id 1; a failing
 * flag call counts as on. `ready` is false until the flag call has settled.
 */
export function useImageGenerationEnabled(): { enabled: boolean; ready: boolean } {
  const { user } = useSession();
  const query = useQuery({
    queryKey: ['feature-flags'],
    queryFn: async () => {
      try {
        return (await fetchFeatureFlags()).imageGenerationEnabled;
      } catch {
        return true;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
  const flag = query.data ?? true;
  return { enabled: flag || user?.id === 1, ready: !query.isPending };
}
