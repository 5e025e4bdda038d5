/**
 * modules/account — e-mail verification, password reset, account deletion and its purge, dormant
 * accounts (decisions 020, 027). Sits above auth and billing. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts) and what a sign-up hands on to this module (auth's SignupHooks).
export { accountRoutes } from './account.routes';
export { signupHooks, sendVerificationEmail } from './email-verification.service';

// Scheduled jobs (bootstrap.ts).
export { purgeDeletedAccounts, PURGE_RETAINED_TABLES } from './account-deletion.service';
export { processDormantAccounts } from './dormant-accounts.service';

// Types.
export type { AccountServices } from './account-services';
