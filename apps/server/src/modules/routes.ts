import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerLocalStorageRoutes } from '../providers/storage/local-storage.routes';
import type { LocalStorage } from '../providers/storage/local.storage';
import { upscaleRoutes } from './upscale/upscale.routes';
import { uploadsRoutes } from './uploads/uploads.routes';

/** Registers the feature route modules (everything beyond auth and flags). */
export async function registerFeatureRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (ctx.storage.kind === 'local') await registerLocalStorageRoutes(app, ctx.storage as LocalStorage);
  await app.register(uploadsRoutes(ctx));
  await app.register(upscaleRoutes(ctx));
}
