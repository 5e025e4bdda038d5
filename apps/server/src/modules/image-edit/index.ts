/**
 * modules/image-edit — the Seedream image-edit tool (decision 023): its definition, routes, status and
 * history. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

export { imageEditRoutes } from './image-edit.routes';
export { imageEditTool } from './image-edit.tool';
export { errorOfRow } from './image-edit.presenter';
