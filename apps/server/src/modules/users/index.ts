/**
 * modules/users — user rows (lookup, the page's user shape, the profile route) and the sign-in history
 * (decision 031). Below auth, account and affiliate; imports no other module. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { usersRoutes } from './users.routes';

// Lookups and the page's user shape (auth, account).
export { findUserByEmail, findUserById, normalizeEmail } from './users.service';
export { presentUser } from './users.presenter';

// The sign-in history: auth records, affiliate compares, account purges, housekeeping trims.
export { SIGN_IN_HISTORY_DAYS, signInTraceKey, signInTrace, recordSignInEvent, recentSignInMatch, purgeOldSignInEvents, deleteSignInEventsOfUser, type SignInTrace } from './sign-in-history';
