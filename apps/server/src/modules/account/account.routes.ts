import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_RULES,
  DeleteAccountRequestSchema,
  DeleteAccountResponseSchema,
  ForgotPasswordRequestSchema,
  ResendVerificationResponseSchema,
  ResetPasswordRequestSchema,
  SuccessResponseSchema,
  VerifyEmailRequestSchema,
  VerifyEmailResponseSchema,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requestLocale } from '../../lib/locale';
import { clientKey } from '../../lib/rate-limit';
import { userOf } from '../../lib/request-user';
import { SESSION_COOKIE, sessionIdFor } from '../auth';
import { normalizeEmail } from '../users';
import { requestAccountDeletion } from './account-deletion.service';
import type { AccountServices } from './account-services';
import { sendVerificationEmail, verifyEmail } from './email-verification.service';
import { requestPasswordReset, resetPassword } from './password-reset.service';

/**
 * Account e-mails and deletion (issue 14, decision 020): e-mail verification and its resend, forgotten
 * password (request + reset), and the deletion request of 002 §9. The undo of a deletion signs in, so
 * it lives with login in auth.routes.ts.
 */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const s: AccountServices = ctx;
    const sessionId = (cookie: string | undefined) => (cookie ? sessionIdFor(cookie) : null);

    app.post(
      '/api/auth/verify-email',
      { config: { access: 'public' }, schema: { tags: ['account'], body: VerifyEmailRequestSchema, response: { 200: VerifyEmailResponseSchema } } },
      async (req) => {
        const r = await verifyEmail(s, req.body.token);
        return { success: true as const, welcomeCredits: r.welcomeCredits };
      },
    );

    // Counted only for requests the per-IP limit let through.
    const resendPerAccount = app.createRateLimit({
      max: ACCOUNT_RULES.resendPerAccount.max,
      timeWindow: ACCOUNT_RULES.resendPerAccount.windowMs,
      keyGenerator: (req) => `verify-resend:user:${req.sessionUser?.id ?? 0}`,
    });
    app.post(
      '/api/auth/resend-verification',
      {
        schema: { tags: ['account'], response: { 200: ResendVerificationResponseSchema } },
        config: {
          access: 'user',
          rateLimit: { max: ACCOUNT_RULES.resendPerIp.max, timeWindow: ACCOUNT_RULES.resendPerIp.windowMs, keyGenerator: (req) => `verify-resend:ip:${clientKey(req.ip)}` },
        },
      },
      async (req, reply) => {
        const user = userOf(req);
        if (user.emailVerifiedAt) return { success: true as const, alreadyVerified: true };
        const limit = await resendPerAccount(req);
        if (!limit.isAllowed && limit.isExceeded) {
          reply.header('retry-after', limit.ttlInSeconds);
          throw new AppError('RATE_LIMITED', { message: 'verification resend per account', details: { retryAfterSeconds: limit.ttlInSeconds } });
        }
        await sendVerificationEmail(s, user);
        return { success: true as const, alreadyVerified: false };
      },
    );

    const resetPerAddress = app.createRateLimit({
      max: ACCOUNT_RULES.resetPerAddress.max,
      timeWindow: ACCOUNT_RULES.resetPerAddress.windowMs,
      keyGenerator: (req) => `reset:addr:${normalizeEmail((req.body as { email: string }).email)}`,
    });
    app.post(
      '/api/auth/forgot-password',
      {
        schema: { tags: ['account'], body: ForgotPasswordRequestSchema, response: { 200: SuccessResponseSchema } },
        config: {
          access: 'public',
          rateLimit: { max: ACCOUNT_RULES.resetPerIp.max, timeWindow: ACCOUNT_RULES.resetPerIp.windowMs, hook: 'preHandler', keyGenerator: (req) => `reset:ip:${clientKey(req.ip)}` },
        },
      },
      async (req) => {
        // Per address: counted whether or not the address has an account, so the limit reveals nothing.
        const limit = await resetPerAddress(req);
        if (!limit.isAllowed && limit.isExceeded) {
          // The same answer as an accepted request: a refusal here would tell that someone asked for this address.
          req.log.info('password reset: per-address limit reached; nothing sent');
          return { success: true as const };
        }
        // The lookup, the token and the mail run after the answer: the same answer, in the same time, whether or not the account exists.
        const locale = requestLocale(req.headers, req.cookies);
        const email = req.body.email;
        setImmediate(() => {
          requestPasswordReset(s, email, locale).catch((err: unknown) => req.log.warn({ err }, 'password reset mail failed'));
        });
        return { success: true as const };
      },
    );

    app.post(
      '/api/auth/reset-password',
      {
        schema: { tags: ['account'], body: ResetPasswordRequestSchema, response: { 200: SuccessResponseSchema } },
        config: {
          access: 'public',
          rateLimit: { max: ACCOUNT_RULES.resetPerIp.max * 3, timeWindow: ACCOUNT_RULES.resetPerIp.windowMs, hook: 'preHandler', keyGenerator: (req) => `reset-use:ip:${clientKey(req.ip)}` },
        },
      },
      async (req) => {
        await resetPassword(s, { token: req.body.token, password: req.body.password, keepSessionId: sessionId(req.cookies[SESSION_COOKIE]) });
        return { success: true as const };
      },
    );

    app.post(
      '/api/account/delete',
      { config: { access: 'user' }, schema: { tags: ['account'], body: DeleteAccountRequestSchema, response: { 200: DeleteAccountResponseSchema } } },
      async (req, reply) => {
        const r = await requestAccountDeletion(s, userOf(req), { password: req.body.password, sessionId: sessionId(req.cookies[SESSION_COOKIE]), locale: requestLocale(req.headers, req.cookies) });
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return { success: true as const, deletionDueAt: r.deletionDueAt.toISOString(), subscriptionCancelled: r.subscriptionCancelled };
      },
    );
  };
}
