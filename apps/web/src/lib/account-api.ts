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
import { api } from './api-client';

/** POST /api/auth/verify-email (decision 020): uses the mailed link's token once. */
export function postVerifyEmail(token: string): Promise<VerifyEmailResponse> {
  return api.post('/api/auth/verify-email', { body: { token }, skipAuthEvent: true });
}

/** POST /api/auth/resend-verification: a new link for the signed-in, unverified account (rate-limited). */
export function postResendVerification(): Promise<ResendVerificationResponse> {
  return api.post('/api/auth/resend-verification');
}

/** POST /api/auth/forgot-password: always `{success:true}` (no account enumeration). */
export function postForgotPassword(body: ForgotPasswordRequest): Promise<{ success: true }> {
  return api.post('/api/auth/forgot-password', { body, skipAuthEvent: true });
}

/** POST /api/auth/reset-password: the mailed token and the new password. */
export function postResetPassword(body: ResetPasswordRequest): Promise<{ success: true }> {
  return api.post('/api/auth/reset-password', { body, skipAuthEvent: true });
}

/** POST /api/account/delete (002 §9): disables the account now, deletes it after 14 days. */
export function postDeleteAccount(body: DeleteAccountRequest): Promise<DeleteAccountResponse> {
  return api.post('/api/account/delete', { body });
}

/** POST /api/auth/undo-deletion: the token from the ACCOUNT_DELETION_PENDING sign-in answer; signs in. */
export function postUndoDeletion(body: UndoDeletionRequest): Promise<User> {
  return api.post('/api/auth/undo-deletion', { body, skipAuthEvent: true });
}
