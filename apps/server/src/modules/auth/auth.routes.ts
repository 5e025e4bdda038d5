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
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/rate-limit';
import { requestLocale } from '../../lib/locale';
import { presentUser, recordSignInEvent, signInTrace, signInTraceKey } from '../users';
import { authenticate, registerAccount, retryAfterSeconds } from './auth.service';
import { notifySignupAttempt } from './signup-attempt.service';
import { issueUndoDeletionToken, undoAccountDeletion } from './undo-deletion';
import { emailDomain, reserveSignupDomain, signupDomainClosed } from './signup-domain-limit';
import type { SignInKind, UserRow } from '../../db/schema';
import { currentUser } from './auth.guard';
import { AFFILIATE_COOKIE, attributeSignup, readAttributionCookie } from '../affiliate';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS, DEVICE_COOKIE_PATH, deviceCookieKey, issueDevice, LEGACY_DEVICE_COOKIE_PATH, readDeviceCookie } from './device-cookie';
import { createSession, deleteSession, SESSION_COOKIE } from './session.service';

export function cookieSecure(ctx: AppContext, req: FastifyRequest): boolean {
  const s = ctx.config.session.cookieSecure;
  return s === 'auto' ? req.protocol === 'https' : s;
}

export function setSessionCookie(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieSecure(ctx, req), expires: expiresAt });
}

/**
 * Sets a new device cookie (decision 008) on every `/api/auth/*` path and drops the copy a browser may
 * still hold from before decision 031 on `/api/auth/login`.
 */
export function setDeviceCookie(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(DEVICE_COOKIE, value, { path: DEVICE_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure: cookieSecure(ctx, req), maxAge: DEVICE_COOKIE_MAX_AGE_MS / 1000 });
  if (req.cookies[DEVICE_COOKIE] !== undefined) reply.clearCookie(DEVICE_COOKIE, { path: LEGACY_DEVICE_COOKIE_PATH });
}

/**
 * What a sign-up hands on to the modules above auth (decision 039: auth sits below modules/account, so
 * it calls them through this, wired by the route index, never by an import).
 */
export interface SignupHooks {
  /**
   * After an e-mail sign-up created `user` (not for an address that had an account): mails the
   * verification link, which the welcome credits wait for (decision 020). A failure is logged, never
   * fails the sign-up (the page offers "resend").
   */
  accountCreated(user: UserRow): Promise<void>;
}

/**
 * Accounts and sessions: spec 000 §7 (register, login, check) plus logout. Sign-up is rate-limited per
 * client IP (@fastify/rate-limit on the database store) and per e-mail domain; login is throttled in
 * `authenticate` and issues a device cookie (docs/decisions/008).
 * @param hooks what a sign-up hands on to the account module (the route index passes the account's `signupHooks`)
 */
export function authRoutes(ctx: AppContext, hooks: SignupHooks): FastifyPluginAsyncZod {
  return async (app) => {
    const signup = ctx.config.signupLimits;
    const secret = ctx.secret;
    const deviceKey = deviceCookieKey(secret);
    const traceKey = signInTraceKey(secret);
    const db = ctx.database.db;
    /** The request's trace for the sign-in history: its address and the device cookie it carries (or `deviceNonce`). */
    const traceOf = (req: FastifyRequest, deviceNonce?: string) => signInTrace(traceKey, req.ip, deviceNonce ?? readDeviceCookie(deviceKey, req.cookies[DEVICE_COOKIE])?.nonce ?? null);

    /**
     * Spec 000 §7: a success status leads to login. A new address and an address that already has an
     * account get the same answer — 201 `{success: true}`, same headers, comparable time (the password is
     * hashed either way and one mail is sent either way) — so sign-up does not reveal who has an account
     * (issue 21 point 10, decision 031): the new address gets its verification link, the owner of a taken
     * one a "someone tried to sign up with your address" mail (at most one a day). The per-IP limit counts
     * every request; the per-domain burst counts only accounts created.
     */
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
        const domain = emailDomain(req.body.email);
        const refuse = (retryAfterSeconds: number): never => {
          reply.header('retry-after', retryAfterSeconds);
          throw new AppError('RATE_LIMITED', { message: 'sign-up burst per e-mail domain', details: { retryAfterSeconds } });
        };
        // A full domain refuses taken and new addresses alike (a difference would reveal which is which).
        const closedFor = await signupDomainClosed(db, domain, signup.perDomain);
        if (closedFor !== null) refuse(closedFor);
        const outcome = await registerAccount(db, req.body, {
          locale: requestLocale(req.headers, req.cookies),
          beforeCreate: async () => {
            const r = await reserveSignupDomain(db, domain, { max: signup.perDomain, windowMs: signup.domainWindowMs });
            return r.ok ? r : refuse(r.retryAfterSeconds);
          },
        });
        // The attribution cookie is spent by any sign-up attempt, so the headers do not differ either.
        const attribution = ctx.config.affiliate.enabled ? readAttributionCookie(secret, req.cookies[AFFILIATE_COOKIE], ctx.config.affiliate.cookieMaxAgeMs) : null;
        if (req.cookies[AFFILIATE_COOKIE] !== undefined) reply.clearCookie(AFFILIATE_COOKIE, { path: '/' });
        if (!outcome.created) {
          req.log.info({ ownerId: outcome.owner.id }, 'sign-up with an address that has an account');
          await notifySignupAttempt(ctx, outcome.owner).catch((err: unknown) => req.log.warn({ err, userId: outcome.owner.id }, 'sign-up attempt mail failed'));
          return reply.code(201).send({ success: true as const });
        }
        const user = outcome.user;
        req.log.info({ userId: user.id }, 'account registered');
        const trace = traceOf(req);
        await recordSignInEvent(db, { userId: user.id, kind: 'signup', trace });
        // The welcome credits wait for this link (decision 020). A mail failure does not fail the sign-up: the page offers "resend".
        await hooks.accountCreated(user).catch((err: unknown) => req.log.warn({ err, userId: user.id }, 'verification mail failed'));
        if (attribution) {
          // An attribution problem never fails the sign-up itself.
          await attributeSignup(db, { referredId: user.id, referredEmail: user.email, signupIp: req.ip, trace, attribution })
            .then((r) => r && req.log.info({ userId: user.id, sharerId: r.sharerId, eligible: r.eligible }, 'referral attributed'))
            .catch((err: unknown) => req.log.warn({ err }, 'referral attribution failed'));
        }
        return reply.code(201).send({ success: true as const });
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
      // OWASP device cookie: this browser has proved the password; its later logins use their own counter.
      const device = issueDevice(deviceKey, user.id);
      await startSession(req, reply, user.id, 'login', device.nonce);
      setDeviceCookie(ctx, req, reply, device.value);
      req.log.info({ userId: user.id }, 'login');
      return presentUser(user);
    });

    /** 002 §9 undo window: the token from ACCOUNT_DELETION_PENDING restores the account and signs it in. */
    app.post(
      '/api/auth/undo-deletion',
      { config: { access: 'public' }, schema: { tags: ['auth'], body: UndoDeletionRequestSchema, response: { 200: LoginResponseSchema } } },
      async (req, reply) => {
        const user = await undoAccountDeletion(ctx, req.body.token);
        await startSession(req, reply, user.id, 'undo');
        return presentUser(user);
      },
    );

    /**
     * A new session id at every sign-in; an old cookie of this browser is dropped first. The sign-in goes
     * into the history (decision 031) with the device cookie the browser holds afterwards.
     */
    async function startSession(req: FastifyRequest, reply: FastifyReply, userId: number, kind: SignInKind, deviceNonce?: string): Promise<void> {
      const old = req.cookies[SESSION_COOKIE];
      if (old) await deleteSession(ctx.database.db, old);
      await recordSignInEvent(db, { userId, kind, trace: traceOf(req, deviceNonce) });
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
