/**
 * A worker process that tests kill mid-job (SIGKILL). Opens the database named by DATABASE_URL or
 * DATA_DIR (PGlite), signs up a user, uploads a photo, starts one upscale job with an engine that
 * hangs (or finishes, with CRASH_ENGINE_MODE=ok), and prints `JOB <imageId> <userId>` once the engine
 * is running, or `DONE` once completed. Run with `node --import tsx`.
 */
import { loadConfig } from '../../src/config';
import { createContext } from '../../src/bootstrap';
import { registerUser, grantWelcomeCreditsOnce } from '../../src/modules/auth';
import { storeDirectUpload } from '../../src/modules/uploads';
import { retouchTool } from '../../src/modules/retouch';
import { createToolJob, userActor } from '../../src/modules/tool-jobs';
import { createFakeEngine } from './fake-engine';
import { makeJpeg } from '../helpers/images';

const config = loadConfig();
const engine = createFakeEngine();
engine.mode = process.env.CRASH_ENGINE_MODE === 'ok' ? 'ok' : 'hang';
const run = engine.run.bind(engine);
let imageId = 0;
let userId = 0;
engine.run = async (input, signal) => {
  console.log(`JOB ${imageId} ${userId}`);
  const r = await run(input, signal);
  return r;
};
const ctx = await createContext(config, { engines: { retouch: engine } });
const user = await registerUser(ctx.database.db, { name: 'Crash', email: `crash-${Date.now()}@example.com`, password: 'password-1' }, { locale: 'ko' });
await grantWelcomeCreditsOnce(ctx.database.db, { userId: user.id, email: user.email, amount: 300 });
userId = user.id;
const up = await storeDirectUpload(ctx, user.id, await makeJpeg(300, 200));
const job = await createToolJob(ctx, retouchTool, userActor(user.id), retouchTool.input.parse({ image: up.imageUrl, scale_factor: 1 }));
imageId = job.imageId;
await ctx.queue.startWorkers({ concurrency: 1, pollingIntervalSeconds: 0.5 });
if (engine.mode === 'ok') {
  const { jobs } = await import('../../src/db/schema');
  const { eq } = await import('drizzle-orm');
  for (;;) {
    const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, imageId));
    if (row?.status === 'completed') {
      console.log('DONE');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
// stay alive until killed
setInterval(() => {}, 1000);
