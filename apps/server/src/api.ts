import { loadConfig } from './config';
import { buildApp } from './app';
import { closeContext, createContext } from './bootstrap';
import { recoverStuckJobs } from './modules/upscale/upscale.service';
import { purgeExpiredSessions } from './modules/auth/session.service';
import { purgeLoginAttempts } from './modules/auth/auth.service';

/**
 * Entry point of the API (and, by default, the in-process workers): `npm start`.
 * Starts on the embedded defaults (PGlite in ./data/db, files in ./data/files, local engines), runs
 * migrations, recovers jobs a crash left behind, serves web + API, and shuts down gracefully on
 * SIGINT/SIGTERM (stops taking requests, lets running jobs finish, closes the database).
 */
async function main() {
  const config = loadConfig();
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  const singleOwner = ctx.database.kind === 'pglite';
  const maxAgeMs = (config.workers.jobTimeoutSeconds + 120) * 1000;
  const recovered = await recoverStuckJobs(ctx, { singleOwner, maxAgeMs });
  if (recovered.length) app.log.warn({ recovered }, 'failed and refunded jobs left behind by a crash');
  if (config.workers.inProcess) await ctx.queue.startWorkers({ concurrency: config.workers.concurrency });
  const housekeeping = setInterval(() => {
    recoverStuckJobs(ctx, { singleOwner: false, maxAgeMs }).catch((err) => app.log.error({ err }, 'recovery failed'));
    purgeExpiredSessions(ctx.database.db, config.session).catch((err) => app.log.error({ err }, 'session purge failed'));
    purgeLoginAttempts(ctx.database.db, config.loginLimits.windowMs).catch((err) => app.log.error({ err }, 'login-attempt purge failed'));
  }, 60_000);
  housekeeping.unref();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(housekeeping);
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await app.close();
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const address = `http://localhost:${(app.server.address() as { port: number }).port}`;
  console.log(`\n  Dewy is running at ${address}\n  API docs: ${address}/api/docs\n  Database: ${ctx.database.kind}${ctx.database.kind === 'pglite' ? ` (${(config.database as { dir: string }).dir})` : ''}\n`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
