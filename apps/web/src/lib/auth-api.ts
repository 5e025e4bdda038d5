import type { AuthCheckResponse, FeatureFlagsResponse, LoginRequest, RegisterRequest, RegisterResponse, User } from '@dewy/contracts';
import { apiRequest } from './api-client';

/** GET /api/auth/check (spec 000 §7); 401/419 raise `auth:invalid` through the client. */
export function fetchAuthCheck(): Promise<AuthCheckResponse> {
  return apiRequest<AuthCheckResponse>('/api/auth/check');
}

/** POST /api/auth/login; a wrong password is an expected 401, so no `auth:invalid`. */
export function postLogin(body: LoginRequest): Promise<User> {
  return apiRequest<User>('/api/auth/login', { method: 'POST', body, skipAuthEvent: true });
}

/** POST /api/auth/register; success does not sign in (spec 000 §7). */
export function postRegister(body: RegisterRequest): Promise<RegisterResponse> {
  return apiRequest<RegisterResponse>('/api/auth/register', { method: 'POST', body, skipAuthEvent: true });
}

export function postLogout(): Promise<{ success: true }> {
  return apiRequest<{ success: true }>('/api/auth/logout', { method: 'POST', skipAuthEvent: true });
}

/** GET /api/feature/flags. */
export function fetchFeatureFlags(): Promise<FeatureFlagsResponse> {
  return apiRequest<FeatureFlagsResponse>('/api/feature/flags', { skipAuthEvent: true });
}
