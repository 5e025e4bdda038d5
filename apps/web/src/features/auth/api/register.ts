import { useMutation } from '@tanstack/react-query';
import type { RegisterRequest } from '@dewy/contracts';
import { postRegister } from '../../../lib/auth-api';

/** POST /api/auth/register as a mutation. */
export function useRegister() {
  return useMutation({ mutationFn: (body: RegisterRequest) => postRegister(body) });
}
