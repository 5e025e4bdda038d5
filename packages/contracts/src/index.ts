// First: zod's settings must be in place before any schema parses (see zod-config.ts).
import './zod-config';
// Bundlers drop the bare import above when no schema module is used (package.json sideEffects): the web
// entry calls this itself so zod is jitless before any lazy page parses (decision 025).
export { configureZodForBrowser } from './zod-config';
export * from './errors';
export * from './constants';
export * from './upscale';
export * from './auth';
export * from './images';
export * from './messages';
export * from './jobs';
export * from './text';
export * from './billing';
export * from './face-edit';
export * from './image-edit';
export * from './notices';
export * from './site';
export * from './social';
export * from './image-generation';
export * from './ai';
export * from './ledger';
export * from './return-path';
export * from './api-keys';
export * from './batches';
export * from './prices';
