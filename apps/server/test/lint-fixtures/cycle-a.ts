// Deliberate import cycle (a → b → a) for apps/server/src/lint-rules.test.ts; ignored by `npm run lint`.
import { b } from './cycle-b';

export const a = (): string => `a${b.length}`;
