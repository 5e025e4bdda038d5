import type {
  DeleteAccountRequest,
  DeleteAccountResponse,
  ForgotPasswordRequest,
  ResendVerificationResponse,
  ResetPasswordRequest,
  UndoDeletionRequest,
  User,
  VerifyEmailResponse,
} from '@dewy/contracts';
import { apiRequest } from './api-client';

/** POST /api/auth/verify-email (decision 020): uses the mailed link's token once. */
export function postVerifyEmail(token: string): Promise<VerifyEmailResponse> {
  return apiRequest<VerifyEmailResponse>('/api/auth/verify-email', { method: 'POST', body: { token }, skipAuthEvent: true });
}

/** POST /api/auth/resend-verification: a new link for the signed-in, unverified account (rate-limited). */
export function postResendVerification(): Promise<ResendVerificationResponse> {
  return apiRequest<ResendVerificationResponse>('/api/auth/resend-verification', { method: 'POST', body: {} });
}

/** POST /api/auth/forgot-password: always `{success:true}` (no account enumeration). */
export function postForgotPassword(body: ForgotPasswordRequest): Promise<{ success: true }> {
  return apiRequest<{ success: true }>('/api/auth/forgot-password', { method: 'POST', body, skipAuthEvent: true });
}

/** POST /api/auth/reset-password: the mailed token and the new password. */
export function postResetPassword(body: ResetPasswordRequest): Promise<{ success: true }> {
  return apiRequest<{ success: true }>('/api/auth/reset-password', { method: 'POST', body, skipAuthEvent: true });
}

/** POST /api/account/delete (002 §9): disables the account now, deletes it after 14 days. */
export function postDeleteAccount(body: DeleteAccountRequest): Promise<DeleteAccountResponse> {
  return apiRequest<DeleteAccountResponse>('/api/account/delete', { method: 'POST', body });
}

/** POST /api/auth/undo-deletion: the token from the ACCOUNT_DELETION_PENDING sign-in answer; signs in. */
export function postUndoDeletion(body: UndoDeletionRequest): Promise<User> {
  return apiRequest<User>('/api/auth/undo-deletion', { method: 'POST', body, skipAuthEvent: true });
}
