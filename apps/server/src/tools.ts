import type { ToolDefinition } from './modules/tool-jobs';
import { faceEditTool } from './modules/face-edit';
import { imageEditTool } from './modules/image-edit';
import { retouchTool } from './modules/retouch';
import { imageGenerationTool } from './modules/image-generation';

/**
 * The one list of paid tools (GUIDE §3). The kernel (modules/tool-jobs) registers a queue handler for
 * each, recovers each row by its own job name, and knows nothing of a tool beyond its definition.
 * A new tool is a definition added here (and its job name in jobs/job-map.ts), not a copy of retouch.
 *
 * Where a tool's life goes (docs/ARCHITECTURE.md "Where things are"): its cost is its definition's
 * `prepare` (modules/<tool>/<tool>.tool.ts); the charge, the job row and the queue are
 * modules/tool-jobs/tool-jobs.service.ts `createToolJob`; the run, the completion (store, conditional
 * complete, partial refund, NOTIFY) and a failure's refund (`failAndRefund`) are
 * modules/tool-jobs/tool-jobs.handler.ts; a dead worker's job is refunded by tool-jobs.recovery.ts; its
 * engine comes from the registry (providers/engine-registry.ts). Inline metered calls (the AI text tools)
 * are modules/tool-jobs/metered-call.ts, declared in modules/ai/ai-operations.ts.
 */
export const TOOLS: readonly ToolDefinition[] = [retouchTool, faceEditTool, imageEditTool, imageGenerationTool];
