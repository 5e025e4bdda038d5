import type { ApiKeyCreatedResponse, ApiKeyCreateRequest, ApiKeyView } from '@dewy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** Query key of the account's API keys. */
const API_KEYS_KEY = 'api-keys';

/** GET /api/account/api-keys: the account's keys, newest first (never their secrets). */
export function useApiKeys(enabled: boolean) {
  const { user, status } = useSession();
  return useQuery({
    queryKey: [API_KEYS_KEY, user?.id ?? null],
    queryFn: async (): Promise<ApiKeyView[]> => (await api.get('/api/account/api-keys')).keys,
    enabled: enabled && Boolean(user) && status === 'authenticated',
    staleTime: 0,
  });
}

/** POST /api/account/api-keys: creates a key; the answer carries its secret, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreateRequest): Promise<ApiKeyCreatedResponse> => api.post('/api/account/api-keys', { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [API_KEYS_KEY] }),
  });
}

/** DELETE /api/account/api-keys/{id}: revokes a key at once. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete('/api/account/api-keys/{id}', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [API_KEYS_KEY] }),
  });
}
