import { startFakeSeedream } from './fake-seedream.server';

/**
 * Runs the fake ModelArk image API as a process for the browser tests (e2e/playwright.config.ts starts
 * it before the app server): FAKE_SEEDREAM_PORT, FAKE_SEEDREAM_KEY. Stops on SIGTERM/SIGINT.
 */
const port = Number(process.env.FAKE_SEEDREAM_PORT ?? 0);
const fake = await startFakeSeedream({ apiKey: process.env.FAKE_SEEDREAM_KEY ?? 'e2e-seedream-key', port, delayMs: Number(process.env.FAKE_SEEDREAM_DELAY_MS ?? 500) });
console.log(`fake seedream listening on ${fake.baseUrl}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
