// Worker entry for the piscina pool. Worker threads do not reliably inherit a TypeScript loader (not
// under Vitest, and not under `tsx` for piscina's workers either), so register tsx's ESM hooks in this
// thread and then load the TypeScript worker module.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./engine-worker.ts');

export default mod.runEngineTask;
