/**
 * modules/images — the paid jobs' status, history and downloads in the spec's shapes. Sits above the
 * uploads. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { imagesRoutes } from './images.routes';

// Presenting a job's results (image edit, AI text).
export { resultKeysOf, resultUrlsOf, readableKeyFromUrl, statusErrorOf } from './images.service';
