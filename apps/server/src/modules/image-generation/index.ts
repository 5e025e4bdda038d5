/**
 * modules/image-generation — the Kling image-generation tool (decision 024): its definition and routes.
 * This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

export { imageGenerationRoutes } from './image-generation.routes';
export { imageGenerationTool } from './image-generation.tool';
