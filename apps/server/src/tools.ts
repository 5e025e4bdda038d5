import type { ToolDefinition } from './modules/tool-jobs';
import { faceEditTool } from './modules/face-edit';
import { imageEditTool } from './modules/image-edit';
import { retouchTool } from './modules/retouch';
import { imageGenerationTool } from './modules/image-generation';

/**
 * The one list of paid tools (GUIDE §3). The kernel (modules/tool-jobs) registers a queue handler for
 * each, recovers each row by its own job name, and knows nothing of a tool beyond its definition.
 * A new tool is a definition added here (and its job name in jobs/job-map.ts), not a copy of retouch.
 */
export const TOOLS: readonly ToolDefinition[] = [retouchTool, faceEditTool, imageEditTool, imageGenerationTool];
