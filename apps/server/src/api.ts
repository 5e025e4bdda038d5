import { loadConfig, missingSellerDetails, sellerDetailsWarning } from './config';
import { buildApp } from './app';
import { closeContext, createContext } from './bootstrap';
import { recoverAtStart, startHousekeeping } from './housekeeping';
import { clearServerAddress, localUrl, writeServerAddress } from './server-address';

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
  const sellerWarning = sellerDetailsWarning(config);
  if (sellerWarning) {
    console.warn(sellerWarning);
    ctx.log.warn({ missing: missingSellerDetails(config) }, 'seller details missing: pages show nothing for them');
  }
  const recovered = await recoverAtStart(ctx);
  if (recovered.length) ctx.log.warn({ recovered }, 'failed and refunded jobs left behind by a crash');
  if (config.workers.inProcess) await ctx.queue.startWorkers({ concurrency: config.workers.concurrency });
  if (config.workers.inProcess && config.engine.warmUp) ctx.engines.find('retouch')?.warmUp?.(); // models and SR ready before the first job
  const stopHousekeeping = startHousekeeping(ctx);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'shutting down');
    stopHousekeeping();
    clearServerAddress(config.dataDir);
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await app.close();
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const port = (app.server.address() as { port: number }).port;
  const address = `http://localhost:${port}`;
  // operator tools started with the same DATA_DIR (npm run billing) find this server on its port
  writeServerAddress(config.dataDir, localUrl(config.host, port));
  console.log(`\n  Dewy is running at ${address}\n  API docs: ${address}/api/docs\n  Database: ${ctx.database.kind}${ctx.database.kind === 'pglite' ? ` (${(config.database as { dir: string }).dir})` : ''}\n`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
