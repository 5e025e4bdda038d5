/**
 * modules/ai — the AI text tools: chat, prompt rewrite, prompt extraction, auto prompt (decision 022).
 * A tool: above the ledger, settings and uploads. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { aiRoutes } from './ai.routes';

// Housekeeping (housekeeping.ts): refunds of requests a process left behind or the page never applied.
export { refundUnconfirmedRewrites, staleMeteredCallAgeMs } from './ai-operations';
