/**
 * modules/flags — feature flags and site information for the page. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

export { flagsRoutes } from './flags.routes';
