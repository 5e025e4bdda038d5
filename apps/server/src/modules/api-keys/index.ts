/**
 * modules/api-keys — the API keys a customer's programs call `/v1` with (decision 040): created, listed
 * and revoked from My Page; authenticated on every call. Sits beside account, above the ledger and the
 * kernel. This index is its public face (decision 039).
 */

// Routes (routes.ts).
export { apiKeysRoutes } from './api-keys.routes';

// The `/v1` caller's authentication.
export { authenticateApiKey } from './api-keys.service';

// The signing secret of a key's webhooks (public-api's sender).
export { webhookSigningSecret } from './api-keys.service';
