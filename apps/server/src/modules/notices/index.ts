/**
 * modules/notices — the notice board (issue 13). This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

export { noticesRoutes } from './notices.routes';
