import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context';
import { installAccessControl } from './modules/auth/auth.guard';
import { affiliateRoutes } from './modules/affiliate/affiliate.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { socialAuthRoutes } from './modules/auth/social.routes';
import { accountRoutes } from './modules/account/account.routes';
import { signupHooks } from './modules/account/email-verification.service';
import { creditsRoutes } from './modules/credits/credits.routes';
import { usersRoutes } from './modules/users/users.routes';
import { noticesRoutes } from './modules/notices/notices.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import type { SandboxProvider } from './modules/billing/providers/sandbox.provider';
import { sandboxRoutes } from './modules/billing/sandbox.routes';
import { flagsRoutes } from './modules/flags/flags.routes';
import { imagesRoutes } from './modules/images/images.routes';
import { retouchRoutes } from './modules/retouch/retouch.routes';
import { faceEditRoutes } from './modules/face-edit/face-edit.routes';
import { imageGenerationRoutes } from './modules/image-generation/image-generation.routes';
import { imageEditRoutes } from './modules/image-edit/image-edit.routes';
import { jobEventsRoutes } from './modules/tool-jobs/job-events.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { aiRoutes } from './modules/ai/ai.routes';
import { registerLocalStorageRoutes } from './providers/storage/local-storage.routes';
import type { LocalStorage } from './providers/storage/local.storage';

/**
 * The one route index [Outline server/routes/api/index.ts]: every route module of the API, in one
 * list. Each route declares who may call it (`config: { access: 'public' | 'user' | 'verified' | 'admin' }`;
 * `verified` = a signed-in account with a verified e-mail, for every route that calls a paid vendor or
 * stores an upload, decision 032); one hook enforces it (modules/auth/auth.guard.ts), and an /api route without a declaration stops start-up.
 * Sign-up gets the account module's follow-up (`signupHooks`: the verification mail) here, since auth sits
 * below account (decision 039).
 */
export const ROUTE_MODULES = [(ctx: AppContext) => authRoutes(ctx, signupHooks(ctx)), socialAuthRoutes, accountRoutes, flagsRoutes, uploadsRoutes, imagesRoutes, retouchRoutes, faceEditRoutes, imageEditRoutes, imageGenerationRoutes, jobEventsRoutes, billingRoutes, affiliateRoutes, creditsRoutes, usersRoutes, noticesRoutes, settingsRoutes, aiRoutes] as const;

/** Registers the access hook, the local storage routes (when files are local) and every route module. */
export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  installAccessControl(app, ctx);
  // Signed URLs are their own authorisation (HMAC + expiry): public to the session layer.
  if (ctx.storage.kind === 'local') await registerLocalStorageRoutes(app, ctx.storage as LocalStorage);
  for (const routes of ROUTE_MODULES) await app.register(routes(ctx));
  if (ctx.payments?.name === 'sandbox') {
    const sandbox = ctx.payments as SandboxProvider;
    await app.register(sandboxRoutes(ctx, sandbox, ctx.secret));
    // Its webhooks enter through the same route and hooks as any provider's (signature, raw body).
    sandbox.setDeliverer(async (body, headers) => (await app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body })).statusCode);
  }
}
