/**
 * modules/auth — sessions and their cache, the access hook, sign-up, login, social sign-in, the undo of a
 * deletion (decisions 003, 008, 021, 026, 031). Sits below account and billing, above affiliate, the
 * ledger and the users. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes and the access hook (routes.ts); what a sign-up hands on to the account module.
export { authRoutes, type SignupHooks } from './auth.routes';
export { socialAuthRoutes } from './social.routes';
export { installAccessControl, currentUser } from './auth.guard';

// Sessions (account: password reset, deletion; housekeeping: the purge).
export { SESSION_COOKIE, sessionIdFor, createSession, deleteSessionsOfUser, deleteOtherSessionsOfUser, sessionReauthenticatedAt, purgeExpiredSessions } from './session.service';
export { SessionCache } from './session-cache';
export { DEVICE_COOKIE } from './device-cookie';

// Passwords, accounts and the welcome credits (account; the tests' fixtures).
export { hashPassword, verifyPassword } from './password';
export { registerUser } from './auth.service';
export { grantWelcomeCreditsOnce } from './welcome-credits';
export { issueUndoDeletionToken } from './undo-deletion';
