import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context';
import { installAccessControl, authRoutes, socialAuthRoutes } from './modules/auth';
import { affiliateRoutes } from './modules/affiliate';
import { accountRoutes, signupHooks } from './modules/account';
import { creditsRoutes } from './modules/credits';
import { usersRoutes } from './modules/users';
import { noticesRoutes } from './modules/notices';
import { settingsRoutes } from './modules/settings';
import { billingRoutes, paddleRoutes, type SandboxProvider, sandboxRoutes } from './modules/billing';
import { flagsRoutes } from './modules/flags';
import { imagesRoutes } from './modules/images';
import { retouchRoutes } from './modules/retouch';
import { faceEditRoutes } from './modules/face-edit';
import { imageGenerationRoutes } from './modules/image-generation';
import { imageEditRoutes } from './modules/image-edit';
import { jobEventsRoutes } from './modules/tool-jobs';
import { uploadsRoutes } from './modules/uploads';
import { aiRoutes } from './modules/ai';
import { apiKeysRoutes } from './modules/api-keys';
import { publicApiRoutes } from './modules/public-api';
import { batchesRoutes } from './modules/batches';
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
export const ROUTE_MODULES = [(ctx: AppContext) => authRoutes(ctx, signupHooks(ctx)), socialAuthRoutes, accountRoutes, flagsRoutes, uploadsRoutes, imagesRoutes, retouchRoutes, faceEditRoutes, imageEditRoutes, imageGenerationRoutes, jobEventsRoutes, billingRoutes, affiliateRoutes, creditsRoutes, usersRoutes, noticesRoutes, settingsRoutes, aiRoutes, apiKeysRoutes, publicApiRoutes, batchesRoutes] as const;

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
  // Paddle's default payment link: our page that opens Paddle Checkout (decision 042).
  if (ctx.payments?.name === 'paddle') await app.register(paddleRoutes(ctx));
}
