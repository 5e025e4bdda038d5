// Worker entry for the piscina pool. Worker threads do not always inherit a TypeScript loader (they do
// under `tsx`, not under Vitest), so register tsx's ESM hooks here and then load the TypeScript worker.
import { register } from 'tsx/esm/api';

if (!process.execArgv.some((a) => a.includes('tsx'))) register();
const mod = await import('./engine-worker.ts');

export default mod.runEngineTask;
