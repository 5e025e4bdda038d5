import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuthCheckResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { presentUser } from '../users/users.presenter';
import { authenticate, registerUser } from './auth.service';
import { currentUser } from './auth.guard';
import { createSession, deleteSession, SESSION_COOKIE } from './session.service';

function cookieSecure(ctx: AppContext, req: FastifyRequest): boolean {
  const s = ctx.config.session.cookieSecure;
  return s === 'auto' ? req.protocol === 'https' : s;
}

function setSessionCookie(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieSecure(ctx, req), expires: expiresAt });
}

/** Accounts and sessions: spec 000 §7 (register, login, check) plus logout. */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/register',
      { schema: { tags: ['auth'], body: RegisterRequestSchema, response: { 201: RegisterResponseSchema } } },
      async (req, reply) => {
        const user = await registerUser(ctx.database.db, req.body, { welcomeCredits: ctx.config.welcomeCredits });
        req.log.info({ userId: user.id }, 'account registered');
        return reply.code(201).send({ success: true as const, user: presentUser(user) });
      },
    );

    app.post('/api/auth/login', { schema: { tags: ['auth'], body: LoginRequestSchema, response: { 200: LoginResponseSchema } } }, async (req, reply) => {
      const user = await authenticate(ctx.database.db, req.body, { ip: req.ip, limits: ctx.config.loginLimits });
      // A new session id at every login; an old cookie of this browser is dropped first.
      const old = req.cookies[SESSION_COOKIE];
      if (old) await deleteSession(ctx.database.db, old);
      const { token, expiresAt } = await createSession(ctx.database.db, {
        userId: user.id,
        ip: req.ip,
        userAgent: req.headers['user-agent'],
        policy: ctx.config.session,
      });
      setSessionCookie(ctx, req, reply, token, expiresAt);
      req.log.info({ userId: user.id }, 'login');
      return presentUser(user);
    });

    app.get('/api/auth/check', { schema: { tags: ['auth'], response: { 200: AuthCheckResponseSchema } } }, async (req, reply) => {
      const user = await currentUser(ctx, req, reply);
      return { isAuthenticated: Boolean(user), user: user ? presentUser(user) : null };
    });

    app.post('/api/auth/logout', { schema: { tags: ['auth'], response: { 200: LogoutResponseSchema } } }, async (req, reply) => {
      const token = req.cookies[SESSION_COOKIE];
      if (token) await deleteSession(ctx.database.db, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true as const };
    });
  };
}
