import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuthCheckResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  UndoDeletionRequestSchema,
} from '@dewy/contracts';
import { loadSecret } from '../../bootstrap';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/rate-limit';
import { requestLocale } from '../../lib/locale';
import { issueUndoDeletionToken, undoAccountDeletion } from '../account/account-deletion.service';
import { sendVerificationEmail } from '../account/email-verification.service';
import { presentUser } from '../users/users.presenter';
import { authenticate, registerUser, retryAfterSeconds } from './auth.service';
import { currentUser } from './auth.guard';
import { AFFILIATE_COOKIE, attributeSignup, readAttributionCookie } from '../affiliate/affiliate.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS, deviceCookieKey, issueDeviceCookie, readDeviceCookie } from './device-cookie';
import { createSession, deleteSession, SESSION_COOKIE } from './session.service';

export function cookieSecure(ctx: AppContext, req: FastifyRequest): boolean {
  const s = ctx.config.session.cookieSecure;
  return s === 'auto' ? req.protocol === 'https' : s;
}

export function setSessionCookie(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieSecure(ctx, req), expires: expiresAt });
}

/** The part after the last @, lower-cased: the key of the per-domain sign-up burst limit. */
function emailDomain(email: string): string {
  return email.trim().toLowerCase().split('@').at(-1) ?? '';
}

/**
 * Accounts and sessions: spec 000 §7 (register, login, check) plus logout. Sign-up is rate-limited per
 * client IP (@fastify/rate-limit on the database store) and per e-mail domain; login is throttled in
 * `authenticate` and issues a device cookie (docs/decisions/008).
 */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const signup = ctx.config.signupLimits;
    const secret = loadSecret(ctx.config);
    const deviceKey = deviceCookieKey(secret);
    // Counted only for requests the per-IP limit let through, so one address cannot spend a domain's burst.
    const signupPerDomain = app.createRateLimit({
      max: signup.perDomain,
      timeWindow: signup.domainWindowMs,
      keyGenerator: (req) => `signup:domain:${emailDomain((req.body as { email: string }).email)}`,
    });

    app.post(
      '/api/auth/register',
      {
        schema: { tags: ['auth'], body: RegisterRequestSchema, response: { 201: RegisterResponseSchema } },
        // preHandler: after validation, so malformed bodies are refused without counting.
        config: {
          access: 'public',
          rateLimit: { max: signup.perIp, timeWindow: signup.ipWindowMs, hook: 'preHandler', keyGenerator: (req) => `signup:ip:${clientKey(req.ip)}` },
        },
      },
      async (req, reply) => {
        const byDomain = await signupPerDomain(req);
        if (!byDomain.isAllowed && byDomain.isExceeded) {
          reply.header('retry-after', byDomain.ttlInSeconds);
          throw new AppError('RATE_LIMITED', { message: 'sign-up burst per e-mail domain', details: { retryAfterSeconds: byDomain.ttlInSeconds } });
        }
        const user = await registerUser(ctx.database.db, req.body, { locale: requestLocale(req.headers, req.cookies) });
        req.log.info({ userId: user.id }, 'account registered');
        // The welcome credits wait for this link (decision 020). A mail failure does not fail the sign-up: the page offers "resend".
        await sendVerificationEmail({ ...ctx, secret }, user).catch((err: unknown) => req.log.warn({ err, userId: user.id }, 'verification mail failed'));
        const attribution = ctx.config.affiliate.enabled ? readAttributionCookie(secret, req.cookies[AFFILIATE_COOKIE], ctx.config.affiliate.cookieMaxAgeMs) : null;
        if (attribution) {
          // An attribution problem never fails the sign-up itself.
          await attributeSignup(ctx.database.db, { referredId: user.id, referredEmail: user.email, signupIp: req.ip, attribution })
            .then((r) => r && req.log.info({ userId: user.id, sharerId: r.sharerId, eligible: r.eligible }, 'referral attributed'))
            .catch((err: unknown) => req.log.warn({ err }, 'referral attribution failed'));
          reply.clearCookie(AFFILIATE_COOKIE, { path: '/' });
        }
        return reply.code(201).send({ success: true as const, user: presentUser(user) });
      },
    );

    app.post('/api/auth/login', { config: { access: 'public' }, schema: { tags: ['auth'], body: LoginRequestSchema, response: { 200: LoginResponseSchema } } }, async (req, reply) => {
      let user;
      try {
        const device = readDeviceCookie(deviceKey, req.cookies[DEVICE_COOKIE]);
        user = await authenticate(ctx.database.db, req.body, { ip: req.ip, device, limits: ctx.config.loginLimits });
      } catch (err) {
        const wait = retryAfterSeconds(err);
        if (wait) reply.header('retry-after', wait);
        throw err;
      }
      if (user.deletionRequestedAt) {
        // 002 §9: during the grace period the password only unlocks "undo deletion" (no session).
        throw new AppError('ACCOUNT_DELETION_PENDING', {
          details: { undoToken: issueUndoDeletionToken(secret, user.id), deletionDueAt: (user.deletionDueAt ?? user.deletionRequestedAt).toISOString() },
        });
      }
      await startSession(req, reply, user.id);
      // OWASP device cookie: this browser has proved the password; its later logins use their own counter.
      reply.setCookie(DEVICE_COOKIE, issueDeviceCookie(deviceKey, user.id), {
        path: '/api/auth/login',
        httpOnly: true,
        sameSite: 'strict',
        secure: cookieSecure(ctx, req),
        maxAge: DEVICE_COOKIE_MAX_AGE_MS / 1000,
      });
      req.log.info({ userId: user.id }, 'login');
      return presentUser(user);
    });

    /** 002 §9 undo window: the token from ACCOUNT_DELETION_PENDING restores the account and signs it in. */
    app.post(
      '/api/auth/undo-deletion',
      { config: { access: 'public' }, schema: { tags: ['auth'], body: UndoDeletionRequestSchema, response: { 200: LoginResponseSchema } } },
      async (req, reply) => {
        const user = await undoAccountDeletion({ ...ctx, secret }, req.body.token);
        await startSession(req, reply, user.id);
        return presentUser(user);
      },
    );

    /** A new session id at every sign-in; an old cookie of this browser is dropped first. */
    async function startSession(req: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
      const old = req.cookies[SESSION_COOKIE];
      if (old) await deleteSession(ctx.database.db, old);
      const { token, expiresAt } = await createSession(ctx.database.db, {
        userId,
        ip: req.ip,
        userAgent: req.headers['user-agent'],
        policy: ctx.config.session,
      });
      setSessionCookie(ctx, req, reply, token, expiresAt);
    }

    app.get('/api/auth/check', { config: { access: 'public' }, schema: { tags: ['auth'], response: { 200: AuthCheckResponseSchema } } }, async (req, reply) => {
      const user = await currentUser(ctx, req, reply);
      return { isAuthenticated: Boolean(user), user: user ? presentUser(user) : null };
    });

    app.post('/api/auth/logout', { config: { access: 'public' }, schema: { tags: ['auth'], response: { 200: LogoutResponseSchema } } }, async (req, reply) => {
      const token = req.cookies[SESSION_COOKIE];
      if (token) await deleteSession(ctx.database.db, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true as const };
    });
  };
}
