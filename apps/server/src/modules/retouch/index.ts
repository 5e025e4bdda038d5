/**
 * modules/retouch — the retouch/upscale tool (GUIDE §3): its definition for the kernel and its route.
 * This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

export { retouchRoutes } from './retouch.routes';
export { retouchTool } from './retouch.tool';
