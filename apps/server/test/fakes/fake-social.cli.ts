import { startFakeSocial } from './fake-social.server';

/**
 * Runs the fake Kakao/Naver/Google sign-in servers as a process of their own, for the Playwright spec
 * (e2e/playwright.config.ts starts it next to the API and points KAKAO_* / NAVER_* at it).
 * Env: FAKE_SOCIAL_PORT (required), FAKE_KAKAO_CLIENT_ID/SECRET, FAKE_NAVER_CLIENT_ID/SECRET.
 */
const port = Number(process.env.FAKE_SOCIAL_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('FAKE_SOCIAL_PORT is required');
const fake = await startFakeSocial(
  {
    kakao: { clientId: process.env.FAKE_KAKAO_CLIENT_ID ?? 'e2e-kakao', clientSecret: process.env.FAKE_KAKAO_CLIENT_SECRET ?? 'e2e-kakao-secret' },
    naver: { clientId: process.env.FAKE_NAVER_CLIENT_ID ?? 'e2e-naver', clientSecret: process.env.FAKE_NAVER_CLIENT_SECRET ?? 'e2e-naver-secret' },
    google: { clientId: 'e2e-google' },
  },
  port,
);
console.log(`fake social sign-in servers on ${fake.origin}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
