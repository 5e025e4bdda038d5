import { loadConfig } from './config';
import { closeContext, createContext } from './bootstrap';
import { startHousekeeping } from './housekeeping';

/**
 * Entry point of a separate worker process (`npm run worker`), for the scaled set-up: PostgreSQL via
 * DATABASE_URL, any number of worker processes on any machines, all sharing APP_SECRET and storage.
 * Runs every tool's jobs and the reaper; logs structured JSON through pino like the API.
 */
async function main() {
  const config = loadConfig();
  if (config.database.kind !== 'postgres') {
    throw new Error('npm run worker needs DATABASE_URL (PostgreSQL): the embedded PGlite database belongs to the `npm start` process, which runs its workers in-process.');
  }
  const ctx = await createContext(config);
  await ctx.queue.startWorkers({ concurrency: config.workers.concurrency });
  if (config.engine.warmUp) ctx.engines.find('retouch')?.warmUp?.(); // models and SR ready before the first job
  const stopHousekeeping = startHousekeeping(ctx);
  ctx.log.info({ engines: ctx.engines.describe(), concurrency: config.workers.concurrency, tools: ctx.tools.map((t) => t.name) }, 'worker running');
  const shutdown = async () => {
    stopHousekeeping();
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
