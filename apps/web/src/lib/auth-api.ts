import type { AuthCheckResponse, FeatureFlagsResponse, LoginRequest, RegisterRequest, RegisterResponse, User } from '@dewy/contracts';
import { api } from './api-client';

/** GET /api/auth/check (spec 000 §7); 401/419 raise `auth:invalid` through the client. */
export function fetchAuthCheck(): Promise<AuthCheckResponse> {
  return api.get('/api/auth/check');
}

/** POST /api/auth/login; a wrong password is an expected 401, so no `auth:invalid`. */
export function postLogin(body: LoginRequest): Promise<User> {
  return api.post('/api/auth/login', { body, skipAuthEvent: true });
}

/** POST /api/auth/register; success does not sign in (spec 000 §7). */
export function postRegister(body: RegisterRequest): Promise<RegisterResponse> {
  return api.post('/api/auth/register', { body, skipAuthEvent: true });
}

export function postLogout(): Promise<{ success: true }> {
  return api.post('/api/auth/logout', { skipAuthEvent: true });
}

/** GET /api/feature/flags. */
export function fetchFeatureFlags(): Promise<FeatureFlagsResponse> {
  return api.get('/api/feature/flags', { skipAuthEvent: true });
}
