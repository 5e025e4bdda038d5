import type { UpdateProfileRequest, User } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/** PATCH /api/users/me: the caller's nickname (sign-up's rules); answers the updated user. */
export function patchProfile(body: UpdateProfileRequest): Promise<User> {
  return apiRequest<User>('/api/users/me', { method: 'PATCH', body });
}
