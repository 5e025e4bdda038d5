/**
 * modules/tool-jobs — the paid-job kernel (decisions 010, 011): a tool definition, the one path that
 * charges, queues, runs, refunds and recovers a job, and the job events. Sits below the tools, auth and
 * billing; above the ledger, the uploads and the settings. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts): the job event stream.
export { jobEventsRoutes } from './job-events.routes';

// What a tool is (tools.ts, the tool modules) and how a route starts one.
export { defineTool, type ToolDefinition, type ToolJobsPage, type ToolRequestFile, type ToolImage, type ToolUpload, type ToolOutput, type ToolRunContext } from './tool-definition';
export { cancelQueuedJob, createToolJob, failAndRefund, fairKeyOf, requestFingerprint, userActor, type JobActor } from './tool-jobs.service';
export { readToolForm } from './tool-jobs.files';
export { findToolJob, rowHistoryFields, rowIsPartial, toolJobsPage, toolOfRow } from './tool-jobs.presenter';

// The inline mode (decision 036): metered calls charged, recorded and refunded by the kernel.
export {
  confirmMeteredCall,
  defineMeteredOperation,
  meteredSpendKey,
  refundMeteredCall,
  refundStaleMeteredCalls,
  refundUnconfirmedMeteredCalls,
  replayMeteredCall,
  runMeteredCall,
  type MeteredCaller,
  type MeteredOperation,
} from './metered-call';

// The queue handler, recovery and events (bootstrap.ts, housekeeping.ts, context.ts).
export { toolJobHandler } from './tool-jobs.handler';
export { recoverStuckJobs } from './tool-jobs.recovery';
export { createJobEventBus, type JobEventBus } from './job-events';
