import type { ToolDefinition } from './modules/tool-jobs/tool-definition';
import { faceEditTool } from './modules/face-edit/face-edit.tool';
import { imageEditTool } from './modules/image-edit/image-edit.tool';
import { retouchTool } from './modules/retouch/retouch.tool';
import { imageGenerationTool } from './modules/image-generation/image-generation.tool';

/**
 * The one list of paid tools (GUIDE §3). The kernel (modules/tool-jobs) registers a queue handler for
 * each, recovers each row by its own job name, and knows nothing of a tool beyond its definition.
 * A new tool is a definition added here (and its job name in jobs/job-map.ts), not a copy of retouch.
 */
export const TOOLS: readonly ToolDefinition[] = [retouchTool, faceEditTool, imageEditTool, imageGenerationTool];
