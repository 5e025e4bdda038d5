/**
 * modules/public-api — the `/v1` REST API for a customer's programs (decision 040): API-key callers of
 * the kernel, beside the page's session callers. Sits above the tools' kernel, the ledger, uploads and
 * api-keys; serves every tool of the context (`ctx.tools`). This index is its public
 * face (decision 039).
 */
export { publicApiRoutes } from './public-api.routes';

// The webhook sender (housekeeping) and one round of it (tests).
export { sendDueWebhooks, startWebhookSender } from './webhooks.sender';
export { WEBHOOK_ATTEMPT_OFFSETS_MS } from './webhooks.delivery';

// The kept answers of /v1 Idempotency-Keys past their day (housekeeping).
export { purgeApiIdempotencyKeys } from './idempotency';
