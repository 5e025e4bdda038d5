import { useMutation } from '@tanstack/react-query';
import type { LoginRequest } from '@dewy/contracts';
import { postLogin } from '../../../lib/auth-api';

/** POST /api/auth/login as a mutation. */
export function useLogin() {
  return useMutation({ mutationFn: (body: LoginRequest) => postLogin(body) });
}
