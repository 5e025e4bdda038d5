import type { HistorySource, JobStatus, JobStatusResponse } from '@dewy/contracts';
import type { UploadKind } from '../api/upload-image';
import type { HistoryPaging } from './history-paging';
import type { PollingSchedule } from './polling';

/**
 * The page's mirror of the server's tool definition (issue 23 point 4, decision 037): everything a paid
 * tool is on the page, in one object per tool (`features/<tool>/tool.ts`) — its history kind (the
 * job event `source`), its status call and polling schedule from the spec, its history pages, its
 * error-code → message catalogue and how messages are shown, the cost rule it displays, its upload
 * rules and its API calls. The shared workspace (ToolWorkspace, useToolWorkspace) runs every tool from
 * its definition; a tool page keeps only its options and its layout.
 */

/** How a toast looks (000 §9: success 2 s, error and plain 4 s). */
export type ToastTone = 'error' | 'info' | 'success';

/**
 * A message a tool shows: an i18n key with its values, the server's own text (002 §8 "the server's
 * text"), or a dialog of the page's own (`dialog` names it, e.g. upscale's 'blocked'). `titleKey` is
 * the title of a dialog that shows it; `tone` is the toast's kind (default: error; 'info' a plain notice).
 */
export type ToolMessage =
  | { key: string; values?: Record<string, string | number>; titleKey?: string; tone?: ToastTone }
  | { text: string; titleKey?: string; tone?: ToastTone }
  | { dialog: string };

/** Where a call failed, for a catalogue that words them differently (face edit offline, image-edit uploads). */
export interface CallContext {
  /** navigator.onLine when the failure was reported. */
  online: boolean;
  /** 'upload': an input file or mask upload; 'run': the tool's create call or what precedes it. */
  step: 'upload' | 'run';
}

/**
 * A job's status as the page reads it: the shape of `GET /api/image/status/{jobId}` (001 §3); a tool
 * whose spec gives it another status call (image edit, 002 §7) maps its answer onto it, with the
 * vendor's message of a failed job in `errorMessage`.
 */
export type ToolJobStatus = JobStatusResponse & { errorMessage?: string | null };

/** What a history item says about its job. */
export interface HistoryJob {
  /** The id the status call and the event stream know the job by; null when the item has none. */
  jobId: string | null;
  status: JobStatus;
  /** Result URLs, the main one first (empty unless completed). */
  urls: string[];
  originalUrl: string | null;
  /** Fewer images than ordered were made (the rest refunded, 002 §3). */
  partial?: boolean;
}

/** One page of a history: the items and the offset of the next page (null: none). */
export interface HistoryPage<Item> {
  items: Item[];
  nextOffset: number | null;
}

/** A tool's history on the page (001 §7, 002 §7). */
export interface ToolHistory<Item> {
  /** Page sizes: first load, a reload (after a job; never fewer than shown), each "load more". */
  paging: HistoryPaging;
  /**
   * Read one page of the signed-in user's history.
   * @param page offset and limit in the tool's own units (items, or generations for a grouped read); q a search text
   */
  fetchPage(userId: number, page: { offset: number; limit: number; q?: string }, signal: AbortSignal): Promise<HistoryPage<Item>>;
  /** A stable key of an item (the selection, de-duplication across pages). */
  keyOf(item: Item): string | number;
  /** The job an item stands for (open it, resume it). */
  jobOf(item: Item): HistoryJob;
  /** On the first load, show the newest completed item when nothing else is on the workspace (001 §4). */
  showLatest: boolean;
  /**
   * A completed job of this visit as a temporary item, put at the top of the list at once while the
   * history is read again (001 §4, face edit); the read replaces it by the server's own item. `existing`
   * is the list's item of that job when it holds one (listed while processing): the temporary item
   * takes its place and its key. Absent: the list waits for the read.
   */
  provisional?(job: { jobId: string; urls: string[]; originalUrl: string | null }, existing: Item | undefined): Item;
  /**
   * Deletes items for good (their files too, nothing refunded; issue 28, point 12). All or nothing: a
   * rejection (ApiError) deleted none. Absent: the tool's items cannot be deleted from its page.
   */
  remove?(items: Item[]): Promise<void>;
  /**
   * A copy kept in the browser (002 §3, image generation: at most 50 per user, `guest` signed out): shown
   * until the server's list arrives and when it cannot be read; saved from each unfiltered first page.
   */
  local?: {
    read(userId: number | undefined): Item[];
    save(userId: number | undefined, items: Item[]): void;
  };
}

/** A tool's error catalogue (001 §8, 002 §8) and how its messages are shown. */
export interface ToolMessages {
  /** Toasts (upscale, image generation) or the page's error dialog (face edit, image edit). */
  display: 'toast' | 'dialog';
  /**
   * What a failed call of the tool shows (its create call, an upload, what precedes the create call);
   * null shows nothing. A call that ended the session never reaches it (the session-expired modal is
   * the one message, issue 17).
   */
  callFailed(err: unknown, context: CallContext): ToolMessage | null;
  /** What a failed job shows, from its status's error code (and vendor message) when known. */
  jobFailed(error: { code: string | null; message: string | null }): ToolMessage;
  /** What a job shows when its polling gave up. */
  jobTimeout: ToolMessage;
  /**
   * The message of a failed job depends on its code: when the event stream told the failure (no status
   * read), the status is read once for the code before the failure is shown.
   */
  failureByCode: boolean;
  /** A failed or timed-out job is also announced (toast or dialog), not only shown on the result stage. */
  announceJobFailure: boolean;
}

/**
 * How a tool takes its single input photo (001 §5): the shared upload hook's rules. Keep it stable (a
 * module constant, e.g. in the tool's definition).
 */
export interface ImageUploadConfig {
  /** The presign request's kind, e.g. 'upscale-original'. */
  kind: UploadKind;
  /** False refuses the file with `fileTypeKey` before anything is read. */
  accepts: (file: File) => boolean;
  /** i18n key of a refused file type (locally or by the server). */
  fileTypeKey: string;
  /** Client-side resize target for a size, or null to upload as it is (JPEG when resized). */
  resizeTarget?: (width: number, height: number) => { width: number; height: number } | null;
  /** JPEG quality of a resized upload (default 0.9, 001 §5 retouch; face edit 0.92). */
  jpegQuality?: number;
}

/** A tool's upload rules, and the handoff target (shared/tool-job/lib/handoff.ts) whose image it adopts on arrival. */
export type ToolUploadRules = ImageUploadConfig & { handoffTarget?: string };

/**
 * Everything a paid tool is on the page.
 * @typeParam Item one history item as the tool's history call answers it
 * @typeParam CostInput what the displayed cost depends on
 * @typeParam Api the tool's own calls (create, status, history…), for its page
 */
export interface ClientToolDefinition<Item, CostInput, Api = Record<string, unknown>> {
  /** The tool, as its route and test ids name it. */
  name: string;
  /** The history kind of its jobs: the history's `source` and the `source` of its job events. */
  source: HistorySource;
  /** Its status polling schedule from the spec (shared/tool-job/lib/polling.ts), the stream's fallback. */
  schedule: PollingSchedule;
  /** Read a job's status (the polling call). */
  readStatus(jobId: string, signal: AbortSignal): Promise<ToolJobStatus>;
  /** The id the job event stream names a job by, when it differs from the page's (image edit's task id). */
  eventJobId?(jobId: string): string;
  history: ToolHistory<Item>;
  messages: ToolMessages;
  /** The credits a run costs, as the page shows it before the run (the server computes the same). */
  cost(input: CostInput): number;
  /** Its single input photo's upload rules; absent when the tool takes its inputs otherwise. */
  upload?: ToolUploadRules;
  /** Its download failure wording (001 §8): i18n keys, default 'toolJob.error.download'. */
  download?: { failedKey?: string; offlineKey?: string };
  api: Api;
}

/** Declare a tool's client definition (an identity, for type inference). */
export function defineClientTool<Item, CostInput, Api>(definition: ClientToolDefinition<Item, CostInput, Api>): ClientToolDefinition<Item, CostInput, Api> {
  return definition;
}
