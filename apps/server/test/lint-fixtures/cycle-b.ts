// Deliberate import cycle (b → a → b) for apps/server/src/lint-rules.test.ts; ignored by `npm run lint`.
import { a } from './cycle-a';

export const b = 'b';
export const callA = (): string => a();
