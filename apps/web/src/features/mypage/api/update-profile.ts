import type { UpdateProfileRequest, User } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** PATCH /api/users/me: the caller's nickname (sign-up's rules); answers the updated user. */
export function patchProfile(body: UpdateProfileRequest): Promise<User> {
  return api.patch('/api/users/me', { body });
}
