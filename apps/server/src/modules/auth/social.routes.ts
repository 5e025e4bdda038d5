import { generateCodeVerifier, generateState } from 'arctic';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  GoogleLinkRequestSchema,
  GoogleLoginRequestSchema,
  IdentitiesResponseSchema,
  LoginResponseSchema,
  SocialProviderSchema,
  SocialProvidersResponseSchema,
  RETURN_PATH_MAX,
  safeReturnPath,
  type ErrorCode,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError, isAppError } from '../../lib/app-error';
import { requestLocale } from '../../lib/locale';
import { clientKey } from '../../lib/rate-limit';
import { createSocialProviders, type RedirectOAuthProvider, type SocialProfile } from '../../providers/oauth';
import { presentUser, recordSignInEvent, signInTrace, signInTraceKey } from '../users';
import { userOf } from '../../lib/request-user';
import { currentUser } from './auth.guard';
import { cookieSecure, setDeviceCookie, setSessionCookie } from './auth.routes';
import { deviceCookieKey, issueDevice } from './device-cookie';
import { OAUTH_STATE_MAX_AGE_S, oauthStateCookieName, oauthStateKey, openOAuthState, sameState, sealOAuthState, type OAuthStatePayload } from './oauth-state-cookie';
import { createSession, deleteSession, SESSION_COOKIE, sessionIdFor } from './session.service';
import { issueUndoDeletionToken } from './undo-deletion';
import { confirmSocialReauth, linkSocialIdentity, listIdentities, markSocialReauth, signInWithSocial, unlinkSocialIdentity } from './social.service';

const REDIRECT_PROVIDERS = ['naver', 'kakao'] as const;

/** `path` in the page language: `/en` prefix for English (spec 000 §2), with `params` added. */
function pagePath(locale: 'ko' | 'en', path: string, params: Record<string, string>): string {
  // Every path that reaches a Location passes the one return-path rule here (decision 031), whatever its source.
  const safe = safeReturnPath(path) ?? '/';
  const hashAt = safe.indexOf('#');
  const beforeHash = hashAt === -1 ? safe : safe.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : safe.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const p = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const search = new URLSearchParams(queryAt === -1 ? '' : beforeHash.slice(queryAt + 1));
  for (const [k, v] of Object.entries(params)) search.set(k, v);
  const prefixed = locale === 'en' ? (p === '/' ? '/en' : `/en${p}`) : p;
  const s = search.toString();
  return `${s ? `${prefixed}?${s}` : prefixed}${hash}`;
}

/** The AppError code of a failure, INTERNAL for anything else (logged). */
function codeOf(req: FastifyRequest, err: unknown): ErrorCode {
  if (isAppError(err)) {
    if (err.code === 'SOCIAL_AUTH_FAILED') req.log.warn({ reason: err.message }, 'social sign-in refused by the provider');
    return err.code;
  }
  req.log.error({ err }, 'social sign-in failed');
  return 'INTERNAL';
}

/**
 * Social sign-in (issue 14; spec 000 §1, §2, §7; decision 021): Google Identity Services credentials
 * (`POST /api/auth/google`), Naver and Kakao browser redirects (`GET /api/auth/naver|kakao` → provider →
 * `/callback`), linking while signed in, re-authentication, the account's identities and unlinking.
 * A provider whose client id/secret is missing answers NOT_CONFIGURED (the redirect routes send the
 * browser back to the login page with `?error=NOT_CONFIGURED`) and nothing is written.
 */
export function socialAuthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const providers = createSocialProviders(ctx.config);
    const secret = ctx.secret;
    const stateKey = oauthStateKey(secret);
    const deviceKey = deviceCookieKey(secret);
    const traceKey = signInTraceKey(secret);
    const db = ctx.database.db;
    // A social sign-up is a sign-up: it shares POST /api/auth/register's per-IP limit (decision 008).
    const signupPerIp = app.createRateLimit({ max: ctx.config.signupLimits.perIp, timeWindow: ctx.config.signupLimits.ipWindowMs, keyGenerator: (req) => `signup:ip:${clientKey(req.ip)}` });
    const signInOptions = (req: FastifyRequest) => ({
      welcomeCredits: ctx.config.welcomeCredits,
      beforeCreate: async () => {
        const r = await signupPerIp(req);
        if (!r.isAllowed && r.isExceeded) throw new AppError('RATE_LIMITED', { message: 'social sign-up per IP', details: { retryAfterSeconds: r.ttlInSeconds } });
      },
    });

    /** A new session for `user` (the browser's old one dropped), marked as a fresh social sign-in. */
    /**
     * Opens a session for a social sign-in. An account whose deletion is pending (002 §9) gets no session:
     * ACCOUNT_DELETION_PENDING with an undo token, as a password sign-in answers (decision 020).
     */
    async function startSession(req: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<void> {
      if (user.deletedAt) throw new AppError('SOCIAL_AUTH_FAILED', { message: 'account deleted' });
      if (user.deletionRequestedAt) {
        throw new AppError('ACCOUNT_DELETION_PENDING', {
          details: { undoToken: issueUndoDeletionToken(secret, user.id), deletionDueAt: (user.deletionDueAt ?? user.deletionRequestedAt).toISOString() },
        });
      }
      const old = req.cookies[SESSION_COOKIE];
      if (old) await deleteSession(db, old);
      const { token, expiresAt } = await createSession(db, { userId: user.id, ip: req.ip, userAgent: req.headers['user-agent'], policy: ctx.config.session });
      await markSocialReauth(db, sessionIdFor(token));
      setSessionCookie(ctx, req, reply, token, expiresAt);
      // A sign-in like a password one: the browser gets a device cookie and the sign-in goes into the history (decision 031).
      const device = issueDevice(deviceKey, user.id);
      await recordSignInEvent(db, { userId: user.id, kind: 'social', trace: signInTrace(traceKey, req.ip, device.nonce) });
      setDeviceCookie(ctx, req, reply, device.value);
    }

    /** Link or re-authenticate the signed-in user with `profile`; a reauth marks the current session. */
    async function applyIntent(req: FastifyRequest, intent: 'link' | 'reauth', userId: number, profile: SocialProfile): Promise<void> {
      if (intent === 'link') await linkSocialIdentity(db, userId, profile);
      else await confirmSocialReauth(db, userId, profile);
      const token = req.cookies[SESSION_COOKIE];
      if (token) await markSocialReauth(db, sessionIdFor(token));
      req.log.info({ userId, provider: profile.provider, intent }, 'social identity confirmed');
    }

    app.get('/api/auth/providers', { config: { access: 'public' }, schema: { tags: ['auth'], response: { 200: SocialProvidersResponseSchema } } }, async () => ({
      google: ctx.config.social.google ? { clientId: ctx.config.social.google.clientId } : null,
      naver: Boolean(providers.naver),
      kakao: Boolean(providers.kakao),
    }));

    // Spec 000 §7: POST /api/auth/google {credential} → the user, as login answers.
    app.post('/api/auth/google', { config: { access: 'public' }, schema: { tags: ['auth'], body: GoogleLoginRequestSchema, response: { 200: LoginResponseSchema } } }, async (req, reply) => {
      if (!providers.google) throw new AppError('NOT_CONFIGURED', { message: 'GOOGLE_CLIENT_ID is not set' });
      const profile = await providers.google.verify(req.body.credential);
      const { user, created } = await signInWithSocial(db, profile, signInOptions(req));
      await startSession(req, reply, user);
      req.log.info({ userId: user.id, provider: 'google', created }, 'social sign-in');
      return presentUser(user);
    });

    app.post(
      '/api/auth/google/link',
      { config: { access: 'user' }, schema: { tags: ['auth'], body: GoogleLinkRequestSchema, response: { 200: z.object({ success: z.literal(true) }) } } },
      async (req) => {
        if (!providers.google) throw new AppError('NOT_CONFIGURED', { message: 'GOOGLE_CLIENT_ID is not set' });
        const profile = await providers.google.verify(req.body.credential);
        await applyIntent(req, req.body.intent, userOf(req).id, profile);
        return { success: true as const };
      },
    );

    for (const name of REDIRECT_PROVIDERS) {
      const provider: RedirectOAuthProvider | null = providers[name];
      const cookieName = oauthStateCookieName(name);
      const cookiePath = `/api/auth/${name}`;

      // Start: → the provider's authorize URL, the attempt sealed in a short-lived HttpOnly cookie.
      app.get(
        `/api/auth/${name}`,
        {
          config: { access: 'public' },
          schema: { tags: ['auth'], querystring: z.object({ intent: z.enum(['login', 'link', 'reauth']).default('login'), next: z.string().max(RETURN_PATH_MAX).optional(), locale: z.enum(['ko', 'en']).optional() }) },
        },
        async (req, reply) => {
          const locale = req.query.locale ?? requestLocale(req.headers, req.cookies);
          const next = safeReturnPath(req.query.next);
          const intent = req.query.intent;
          const back = (code: ErrorCode) => reply.redirect(pagePath(locale, intent === 'login' ? '/login' : (next ?? '/mypage'), { [intent === 'login' ? 'error' : 'socialError']: code }), 303);
          if (!provider) return back('NOT_CONFIGURED');
          let userId: number | null = null;
          if (intent !== 'login') {
            const user = await currentUser(ctx, req, reply).catch(() => null);
            if (!user) return reply.redirect(pagePath(locale, '/login', { error: 'UNAUTHENTICATED' }), 303);
            userId = user.id;
          }
          const state = generateState();
          const verifier = provider.usesPkce ? generateCodeVerifier() : null;
          const sealed = sealOAuthState(stateKey, { p: name, s: state, v: verifier, i: intent, u: userId, n: next, l: locale });
          reply.setCookie(cookieName, sealed, { path: cookiePath, httpOnly: true, sameSite: 'lax', secure: cookieSecure(ctx, req), maxAge: OAUTH_STATE_MAX_AGE_S });
          return reply.redirect(provider.authorizationUrl(state, verifier).toString(), 303);
        },
      );

      // Callback: state checked against the cookie (single use: cleared at once), code exchanged, intent applied.
      app.get(
        `/api/auth/${name}/callback`,
        {
          config: { access: 'public' },
          schema: { tags: ['auth'], querystring: z.object({ code: z.string().max(2048).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() }).passthrough() },
        },
        async (req, reply) => {
          const attempt: OAuthStatePayload | null = openOAuthState(stateKey, req.cookies[cookieName]);
          reply.clearCookie(cookieName, { path: cookiePath });
          const locale = attempt?.l ?? requestLocale(req.headers, req.cookies);
          const intent = attempt?.i ?? 'login';
          // The sealed next was checked at the start; checked again here, as every next is (decision 031).
          const next = safeReturnPath(attempt?.n);
          const fail = (code: ErrorCode) =>
            reply.redirect(pagePath(locale, intent === 'login' ? '/login' : (next ?? '/mypage'), { [intent === 'login' ? 'error' : 'socialError']: code }), 303);
          if (!provider) return fail('NOT_CONFIGURED');
          if (!attempt || attempt.p !== name || !req.query.state || !sameState(req.query.state, attempt.s)) return fail('OAUTH_STATE_MISMATCH');
          if (req.query.error) return fail(req.query.error === 'access_denied' ? 'SOCIAL_CANCELLED' : 'SOCIAL_AUTH_FAILED');
          if (!req.query.code) return fail('SOCIAL_AUTH_FAILED');
          try {
            const profile = await provider.exchange(req.query.code, attempt.v, attempt.s);
            if (attempt.i === 'login') {
              const { user, created } = await signInWithSocial(db, profile, signInOptions(req));
              await startSession(req, reply, user);
              req.log.info({ userId: user.id, provider: name, created }, 'social sign-in');
              return reply.redirect(pagePath(locale, next ?? '/upscale', {}), 303);
            }
            // Link and reauth act for the account that started the flow, and only while it is still signed in.
            const user = await currentUser(ctx, req, reply).catch(() => null);
            if (!user || user.id !== attempt.u) return fail('UNAUTHENTICATED');
            await applyIntent(req, attempt.i, user.id, profile);
            return reply.redirect(pagePath(locale, next ?? '/mypage', { social: attempt.i === 'link' ? 'linked' : 'reauth', provider: name }), 303);
          } catch (err) {
            // 002 §9: the grace period's undo prompt on the login page, with the short-lived undo token.
            if (isAppError(err) && err.code === 'ACCOUNT_DELETION_PENDING' && intent === 'login') {
              const d = err.details as { undoToken: string; deletionDueAt: string };
              return reply.redirect(pagePath(locale, '/login', { error: 'ACCOUNT_DELETION_PENDING', undo: d.undoToken, due: d.deletionDueAt }), 303);
            }
            return fail(codeOf(req, err));
          }
        },
      );
    }

    app.get('/api/auth/identities', { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: IdentitiesResponseSchema } } }, async (req) => listIdentities(db, userOf(req).id));

    app.delete(
      '/api/auth/identities/:provider',
      { config: { access: 'user' }, schema: { tags: ['auth'], params: z.object({ provider: SocialProviderSchema }), response: { 200: IdentitiesResponseSchema } } },
      async (req) => {
        const userId = userOf(req).id;
        await unlinkSocialIdentity(db, userId, req.params.provider);
        req.log.info({ userId, provider: req.params.provider }, 'social identity unlinked');
        return listIdentities(db, userId);
      },
    );
  };
}
