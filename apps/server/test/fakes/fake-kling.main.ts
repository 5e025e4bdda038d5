import { startFakeKling } from './fake-kling.server';

/**
 * Runs the fake Kling API as a process, for the e2e suite (e2e/playwright.config.ts starts it before
 * the app server): FAKE_KLING_PORT, FAKE_KLING_ACCESS_KEY, FAKE_KLING_SECRET_KEY.
 */
const fake = await startFakeKling({
  port: Number(process.env.FAKE_KLING_PORT ?? 0),
  accessKey: process.env.FAKE_KLING_ACCESS_KEY ?? 'e2e-access-key',
  secretKey: process.env.FAKE_KLING_SECRET_KEY ?? 'e2e-secret-key-0123456789',
  pollsBeforeDone: 1,
});
console.log(`fake Kling listening on ${fake.origin}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
