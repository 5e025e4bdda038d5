import { HISTORY_CLICK_DEBOUNCE_MS, type JobEvent } from '@dewy/contracts';
import { ApiError } from '../../../lib/api-client';
import { firstPageLimit } from './history-paging';
import type { JobEventSource, JobOutcome, SettledVia } from './job-tracker';
import { trackJob } from './job-tracker';
import type { CallContext, ClientToolDefinition, HistoryJob, ToolJobStatus, ToolMessage } from './tool-definition';
import { endedSession } from './tool-messages';

/**
 * The orchestration every tool page shares (issue 23 point 4, decision 037), DOM-free so that it is
 * unit-tested with a fake event stream and fake timers; `useToolWorkspace` wraps it for React.
 *
 * One ToolWorkspace runs one tool from its ClientToolDefinition:
 * - the job: idle → processing → completed | failed. A running job is followed by the shared job event
 *   stream, with the tool's spec polling underneath as the fallback (trackJob); the result or the
 *   failure (the tool's catalogue, by the status's error code) is applied once.
 * - the history: first page, reload after each job (never fewer items than shown), "load more",
 *   search, the tool's local copy; a history click is debounced 300 ms (001 §9) and refused while a
 *   job runs.
 * - resume after a reload (001 §4): on the first history page, a processing item is followed again;
 *   a job started on this browser whose history shows no running items (image edit and image
 *   generation list completed items only, 002 §7) is remembered per user and followed again;
 *   otherwise, for tools that do so, the newest result is shown when nothing else is on the workspace.
 * - errors: every failure goes through the tool's catalogue and is shown its way (toast or dialog);
 *   a call that ended the session shows nothing (the session-expired modal is the one message, issue 17),
 *   history failures included.
 */

/** The job on a tool's workspace. */
export type ToolJobState =
  | { status: 'idle' }
  | { status: 'processing'; jobId: string; startedAt: number; originalUrl: string | null }
  | {
      status: 'completed';
      jobId: string | null;
      /** The main result (the first of `urls`). */
      resultUrl: string;
      /** Every result image (one for retouch and face edit; up to 4 or 8 for generation and image edit). */
      urls: string[];
      /** Fewer images than ordered were made (the rest refunded). */
      partial: boolean;
      originalUrl: string | null;
      via: SettledVia;
    }
  | { status: 'failed'; jobId: string | null; message: ToolMessage };

/** The history list of a workspace. */
export interface WorkspaceHistory<Item> {
  items: Item[];
  /** True while a list is awaited with nothing to show for it yet (first load, a search). */
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  /** The search text of the list ('' for none). */
  query: string;
}

/** Everything a tool page draws from its workspace (a new object on every change). */
export interface WorkspaceState<Item> {
  job: ToolJobState;
  /** The tool's create call (and what precedes it) is running. */
  submitting: boolean;
  history: WorkspaceHistory<Item>;
  /** Key of the history item shown or being made. */
  selectedKey: string | number | null;
  /** The message the page's dialog shows (dialog tools, and `{ dialog }` messages of any tool); null: closed. */
  message: ToolMessage | null;
}

/** What the tool's create step (`start`) ended with. */
export type StartResult =
  /** A job was created: follow it. `selectKey` selects its history item (e.g. the answer's imageId). */
  | { jobId: string; originalUrl?: string | null; selectKey?: string | number }
  /** The result is already known (image edit's HTTP 524 fallback found it in the history, 002 §4). */
  | { completed: { jobId: string | null; urls: string[]; partial?: boolean; originalUrl?: string | null } }
  /** The run failed after the call was accepted, with the tool's code (e.g. AUTO_PROMPT_FAILED). */
  | { failed: { code: string | null; message?: string | null } }
  /** The run could not be followed to its end in time (image edit's 524 fallback). */
  | { timeout: true }
  /** Nothing was started; say why (e.g. a malformed answer, a failed prompt extraction). */
  | { stopped: ToolMessage };

/** A job started on this browser and not yet settled, kept per user and tool across reloads. */
export interface PendingJob {
  jobId: string;
  originalUrl: string | null;
  /** When it was stored (ms); an entry older than PENDING_JOB_MAX_AGE_MS is forgotten. */
  savedAt: number;
}

/** Where a user's pending job of one tool is kept (local storage in the page; memory in tests). */
export interface PendingJobStore {
  read(): PendingJob | null;
  write(job: PendingJob): void;
  clear(): void;
}

/** A remembered running job older than this is not resumed (longer than every tool's polling, 001/002 §4). */
export const PENDING_JOB_MAX_AGE_MS = 30 * 60_000;

/** The job event stream as the workspace uses it: a JobEventsClient, or a fake in tests. */
export interface WorkspaceEvents extends JobEventSource {
  /** Open the stream (a job starts); optional for fakes. */
  connect?(): void;
}

/** What a workspace needs from its page (hook) or test: presenters, the session, timers. */
export interface WorkspaceDeps {
  /** The job event stream; null when the page has none (polling only). */
  events: WorkspaceEvents | null;
  /** Show a toast (the hook translates it; a `{ dialog }` message never comes here). */
  toast(message: ToolMessage): void;
  /** After a job was created or settled: the balance changed (a charge, a refund): re-sync the session. */
  balanceChanged?(): void;
  /** The signed-in user's pending-job store for this tool (null: none kept). */
  pendingStore?(userId: number): PendingJobStore | null;
  /** Opened history items: the page restores what the item was made with (options, photo, prompt). */
  onOpenItem?(item: unknown): void;
  online?(): boolean;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  now?: () => number;
  random?: () => number;
}

type Listener = () => void;

/** Orchestrates one tool's workspace; see the module comment. */
export class ToolWorkspace<Item, CostInput = unknown, Api = unknown> {
  private state: WorkspaceState<Item>;
  private readonly listeners = new Set<Listener>();
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;
  private userId: number | undefined = undefined;
  private userKnown = false;
  private active = false;
  private cancelTrack: (() => void) | null = null;
  private clickTimer: unknown = null;
  private historyAbort: AbortController | null = null;
  private historySeq = 0;
  private nextOffset: number | null = null;
  private resumed = false;
  private inputPicked = false;
  private readonly failureReads = new Set<AbortController>();

  constructor(
    readonly definition: ClientToolDefinition<Item, CostInput, Api>,
    private readonly deps: WorkspaceDeps,
  ) {
    this.setTimer = deps.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
    this.clearTimer = deps.clearTimeout ?? ((h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>));
    this.now = deps.now ?? (() => Date.now());
    this.state = {
      job: { status: 'idle' },
      submitting: false,
      history: { items: [], loading: false, loadingMore: false, hasMore: false, query: '' },
      selectedKey: null,
      message: null,
    };
  }

  /** The current state (a stable object until the next change). */
  getState = (): WorkspaceState<Item> => this.state;

  /** Changes of the state. */
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /**
   * Start the workspace's timers and job following (a page mounted); returns the stop (unmount). A job
   * still processing when it stopped is followed again on the next start (React's strict mode mounts
   * twice). A history read under way is left to finish (its answer is kept for the next start).
   */
  activate(): () => void {
    this.active = true;
    const job = this.state.job;
    if (job.status === 'processing' && !this.cancelTrack) this.follow(job.jobId, job.startedAt, job.originalUrl);
    return () => {
      this.active = false;
      this.stopTracking();
      if (this.clickTimer !== null) this.clearTimer(this.clickTimer);
      this.clickTimer = null;
      for (const c of this.failureReads) c.abort();
      this.failureReads.clear();
    };
  }

  /**
   * The signed-in user (undefined: signed out, or the session ended). A new user starts the history
   * over and, once its first page is in, resumes a running job; signing out stops following the job
   * (its polling would only meet 401s) and shows the tool's local copy for a visitor, if it keeps one.
   */
  setUser(userId: number | undefined): void {
    if (this.userKnown && userId === this.userId) return;
    this.userKnown = true;
    this.userId = userId;
    this.stopTracking();
    this.resumed = false;
    this.nextOffset = null;
    this.historyAbort?.abort();
    this.historyAbort = null;
    const local = this.definition.history.local;
    this.update({
      job: { status: 'idle' },
      selectedKey: null,
      history: { items: local ? local.read(userId) : [], loading: false, loadingMore: false, hasMore: false, query: '' },
    });
    if (userId !== undefined) void this.loadFirstPage('first');
  }

  /** Whether the page holds an input of this visit (a picked photo): the newest result is then not shown over it. */
  setInputPicked(picked: boolean): void {
    this.inputPicked = picked;
  }

  /** The page took a new input (a photo was uploaded): the shown result and the selection go. */
  inputChanged(): void {
    this.stopTracking();
    this.update({ job: { status: 'idle' }, selectedKey: null });
  }

  /** True while the create call runs or a job is processing. */
  get busy(): boolean {
    return this.state.submitting || this.state.job.status === 'processing';
  }

  /**
   * Run the tool: `create` makes the tool's create call (and what precedes it) and says what came of
   * it. While it runs `submitting` is set; a thrown error goes through the tool's catalogue. Refused
   * (false) while a job runs or another start is under way.
   */
  async start(create: () => Promise<StartResult>): Promise<boolean> {
    if (this.busy) return false;
    this.update({ submitting: true });
    let created = false;
    try {
      const result = await create();
      if ('jobId' in result) {
        created = true;
        const originalUrl = result.originalUrl ?? null;
        this.remember({ jobId: result.jobId, originalUrl, savedAt: this.now() });
        this.track(result.jobId, originalUrl);
        if (result.selectKey !== undefined) this.update({ selectedKey: result.selectKey });
      } else if ('completed' in result) {
        created = true;
        const c = result.completed;
        const first = c.urls[0];
        if (first) this.update({ job: { status: 'completed', jobId: c.jobId, resultUrl: first, urls: c.urls, partial: c.partial ?? false, originalUrl: c.originalUrl ?? null, via: 'history' } });
        else this.jobFailedWith(c.jobId, this.definition.messages.jobFailed({ code: null, message: null }));
      } else if ('failed' in result) {
        created = true;
        this.jobFailedWith(null, this.definition.messages.jobFailed({ code: result.failed.code, message: result.failed.message ?? null }));
      } else if ('timeout' in result) {
        created = true;
        this.jobFailedWith(null, this.definition.messages.jobTimeout);
      } else {
        this.present(result.stopped);
      }
    } catch (err) {
      this.reportError(err, 'run');
    } finally {
      this.update({ submitting: false });
    }
    if (created) this.reloadHistory();
    this.deps.balanceChanged?.();
    return created;
  }

  /** Follow a job (just created, or resumed): processing until it settles. */
  track(jobId: string, originalUrl: string | null): void {
    this.stopTracking();
    const startedAt = this.now();
    this.update({ job: { status: 'processing', jobId, startedAt, originalUrl } });
    if (this.active) this.follow(jobId, startedAt, originalUrl);
  }

  /** Back to idle (the result stage's "try again"); a running job is no longer followed. */
  reset(): void {
    this.stopTracking();
    this.update({ job: { status: 'idle' } });
  }

  /** Show a message the tool's way (its dialog or a toast). */
  say(message: ToolMessage): void {
    this.present(message);
  }

  /** Show a toast, whatever the tool's display (e.g. a page rule refused a file). */
  toast(message: ToolMessage): void {
    this.deps.toast(message);
  }

  /**
   * Report a failed call through the tool's catalogue; nothing when the call ended the session (the
   * session-expired modal says it) or was aborted.
   * @param step 'upload' for an input or mask upload, 'run' for the create call and what precedes it
   */
  reportError(err: unknown, step: CallContext['step'] = 'run'): void {
    if (endedSession(err) || isAbort(err)) return;
    const message = this.definition.messages.callFailed(err, { online: this.deps.online?.() ?? true, step });
    if (message) this.present(message);
  }

  /** Close the dialog's message. */
  dismissMessage(): void {
    this.update({ message: null });
  }

  /**
   * A click on a history item (001 §9, 002 §9): takes effect after 300 ms of quiet; while a job runs it
   * is refused with a notice.
   */
  selectHistory(item: Item): void {
    if (this.clickTimer !== null) this.clearTimer(this.clickTimer);
    this.clickTimer = this.setTimer(() => {
      this.clickTimer = null;
      if (this.busy) {
        this.deps.toast({ key: 'toolJob.history.busy', tone: 'info' });
        return;
      }
      this.openItem(item);
    }, HISTORY_CLICK_DEBOUNCE_MS);
  }

  /** Show a history item on the workspace: its result, its running job (followed again) or its failure. */
  openItem(item: Item): void {
    const job = this.definition.history.jobOf(item);
    this.update({ selectedKey: this.definition.history.keyOf(item) });
    this.deps.onOpenItem?.(item);
    this.showJob(job);
  }

  /** The next page of the history (001 §7 "load more"); a failure says so (unless the session ended). */
  async loadMore(): Promise<void> {
    const userId = this.userId;
    const offset = this.nextOffset;
    if (userId === undefined || offset === null || this.state.history.loadingMore) return;
    const h = this.definition.history;
    const query = this.state.history.query;
    this.update({ history: { ...this.state.history, loadingMore: true } });
    try {
      const page = await h.fetchPage(userId, { offset, limit: h.paging.more, q: query || undefined }, new AbortController().signal);
      if (userId !== this.userId || query !== this.state.history.query) return;
      const seen = new Set(this.state.history.items.map((i) => h.keyOf(i)));
      this.nextOffset = page.nextOffset;
      this.update({
        history: { ...this.state.history, items: [...this.state.history.items, ...page.items.filter((i) => !seen.has(h.keyOf(i)))], hasMore: page.nextOffset !== null, loadingMore: false },
      });
    } catch (err) {
      this.update({ history: { ...this.state.history, loadingMore: false } });
      this.historyFailed(err);
    }
  }

  /**
   * Deletes history items for good through the tool's `history.remove` (issue 28, point 12): they leave
   * the list at once, a result of one of them on the workspace goes (back to idle), the balance is not
   * touched (nothing is refunded) and the list is read again. A refusal (ApiError) is told by the tool's
   * messages and rethrown, the list unchanged.
   */
  async deleteHistory(items: Item[]): Promise<void> {
    const h = this.definition.history;
    if (!h.remove || !items.length) return;
    try {
      await h.remove(items);
    } catch (err) {
      // The server's words (JOB_IN_PROGRESS, NOT_FOUND…) in the page's language, else a plain failure.
      if (!endedSession(err)) this.deps.toast(err instanceof ApiError && !err.isNetwork ? { text: err.message } : { key: 'toolJob.history.deleteFailed' });
      throw err;
    }
    const gone = new Set(items.map((i) => h.keyOf(i)));
    const jobs = new Set(items.map((i) => h.jobOf(i).jobId).filter((id): id is string => id !== null));
    const job = this.state.job;
    const showing = job.status !== 'idle' && job.jobId !== null && jobs.has(job.jobId);
    this.update({
      history: { ...this.state.history, items: this.state.history.items.filter((i) => !gone.has(h.keyOf(i))) },
      ...(this.state.selectedKey !== null && gone.has(this.state.selectedKey) ? { selectedKey: null } : {}),
    });
    if (showing) this.reset();
    this.deps.toast({ key: items.length === 1 ? 'toolJob.history.deletedOne' : 'toolJob.history.deletedMany', values: { count: items.length }, tone: 'success' });
    this.reloadHistory();
  }

  /** Search the history (002 §7 `q`): the first page of matching items. */
  search(query: string): void {
    this.nextOffset = null;
    this.update({ history: { ...this.state.history, query: query.trim() } });
    void this.loadFirstPage('search');
  }

  /** Read the history's first page again (after a job): as many items as shown, at least the reload size. */
  reloadHistory(): void {
    if (this.userId !== undefined) void this.loadFirstPage('reload');
  }

  private async loadFirstPage(reason: 'first' | 'reload' | 'search'): Promise<void> {
    const userId = this.userId;
    if (userId === undefined) return;
    const h = this.definition.history;
    this.historyAbort?.abort();
    const controller = new AbortController();
    this.historyAbort = controller;
    const seq = ++this.historySeq;
    const query = this.state.history.query;
    const shown = reason === 'reload' ? this.state.history.items.length : null;
    const limit = firstPageLimit(h.paging, shown);
    if (reason !== 'reload') this.update({ history: { ...this.state.history, loading: true } });
    let ok = false;
    try {
      const page = await h.fetchPage(userId, { offset: 0, limit, q: query || undefined }, controller.signal);
      if (seq !== this.historySeq || userId !== this.userId) return;
      this.nextOffset = page.nextOffset;
      if (h.local && !query) h.local.save(userId, page.items);
      this.update({ history: { ...this.state.history, items: page.items, loading: false, hasMore: page.nextOffset !== null } });
      ok = true;
    } catch (err) {
      if (seq !== this.historySeq || userId !== this.userId || isAbort(err)) return;
      const items = h.local && !query ? h.local.read(userId) : this.state.history.items;
      this.update({ history: { ...this.state.history, items, loading: false } });
      this.historyFailed(err);
    } finally {
      if (this.historyAbort === controller) this.historyAbort = null;
    }
    if (!this.resumed && (ok || reason === 'first')) {
      this.resumed = true;
      this.resume(ok ? this.state.history.items : []);
    }
  }

  private historyFailed(err: unknown): void {
    console.warn(`[${this.definition.name}] history failed`, err);
    if (!endedSession(err)) this.deps.toast({ key: 'toolJob.error.historyLoad' });
  }

  /**
   * Once, on the first history page (001 §4): a processing item is followed again — opened with what
   * it was made with, or only followed when a photo of this visit is on the workspace; else a job this
   * browser started and the list does not show as settled is followed again; else, for a tool that
   * does so, the newest result is shown unless something else is on the workspace.
   */
  private resume(items: Item[]): void {
    // Something of this visit is already on the workspace (a job, a result): it stays.
    if (this.state.job.status !== 'idle' || this.state.submitting) return;
    const h = this.definition.history;
    const pending = items.find((i) => {
      const job = h.jobOf(i);
      return job.status === 'processing' && job.jobId !== null;
    });
    if (pending) {
      if (!this.inputPicked) {
        this.openItem(pending);
      } else {
        this.update({ selectedKey: h.keyOf(pending) });
        this.track(h.jobOf(pending).jobId as string, h.jobOf(pending).originalUrl);
      }
      return;
    }
    const store = this.store();
    const stored = store?.read() ?? null;
    if (stored) {
      const known = items.find((i) => h.jobOf(i).jobId === stored.jobId);
      if (!known && this.now() - stored.savedAt < PENDING_JOB_MAX_AGE_MS) {
        this.track(stored.jobId, stored.originalUrl);
        return;
      }
      store?.clear();
    }
    if (!h.showLatest || this.inputPicked) return;
    const latest = items.find((i) => {
      const job = h.jobOf(i);
      return job.status === 'completed' && job.urls.length > 0;
    });
    if (latest) this.openItem(latest);
  }

  private showJob(job: HistoryJob): void {
    const first = job.urls[0];
    if (job.status === 'completed' && first) {
      this.stopTracking();
      this.update({ job: { status: 'completed', jobId: job.jobId, resultUrl: first, urls: job.urls, partial: job.partial ?? false, originalUrl: job.originalUrl, via: 'history' } });
    } else if (job.status === 'processing' && job.jobId) {
      this.track(job.jobId, job.originalUrl);
    } else {
      this.stopTracking();
      this.update({ job: { status: 'failed', jobId: job.jobId, message: this.definition.messages.jobFailed({ code: null, message: null }) } });
    }
  }

  private follow(jobId: string, startedAt: number, originalUrl: string | null): void {
    const def = this.definition;
    const client = this.deps.events;
    client?.connect?.();
    const eventId = (id: string) => def.eventJobId?.(id) ?? id;
    // Only this tool's events, under the id the stream uses for the job.
    const events: JobEventSource | null = client
      ? {
          get connection() {
            return client.connection;
          },
          subscribeJob: (id: string, listener: (event: JobEvent) => void) =>
            client.subscribeJob(eventId(id), (event) => {
              if (event.source === def.source) listener(event);
            }),
          subscribeConnection: (listener: () => void) => client.subscribeConnection(listener),
        }
      : null;
    this.cancelTrack = trackJob<ToolJobStatus>(
      jobId,
      startedAt,
      {
        fetchStatus: (id, signal) => def.readStatus(id, signal),
        events,
        schedule: def.schedule,
        setTimeout: this.setTimer,
        clearTimeout: this.clearTimer,
        now: this.now,
        random: this.deps.random,
      },
      (outcome, last) => {
        this.cancelTrack = null;
        this.settled(jobId, originalUrl, outcome, last);
      },
    );
  }

  private settled(jobId: string, originalUrl: string | null, outcome: JobOutcome, last: ToolJobStatus | null): void {
    this.store()?.clear();
    const after = () => {
      this.reloadHistory();
      this.deps.balanceChanged?.();
    };
    if (outcome.status === 'completed') {
      const urls = last?.images?.length ? last.images : [outcome.resultUrl];
      this.update({ job: { status: 'completed', jobId, resultUrl: outcome.resultUrl, urls, partial: last?.partial ?? false, originalUrl: outcome.originalUrl ?? originalUrl, via: outcome.via } });
      this.addProvisional(jobId, urls, outcome.originalUrl ?? originalUrl);
      after();
      return;
    }
    const messages = this.definition.messages;
    if (outcome.reason === 'timeout') {
      this.jobFailedWith(jobId, messages.jobTimeout);
      after();
      return;
    }
    if (last?.status === 'failed' || !messages.failureByCode) {
      const failed = last?.status === 'failed' ? last : null;
      this.jobFailedWith(jobId, messages.jobFailed({ code: failed?.error ?? null, message: failed?.errorMessage ?? null }));
      after();
      return;
    }
    // The stream told the failure: read the status once for its code (a failed read: the generic message).
    const controller = new AbortController();
    this.failureReads.add(controller);
    void this.definition
      .readStatus(jobId, controller.signal)
      .then(
        (s) => (s.status === 'failed' ? { code: s.error ?? null, message: s.errorMessage ?? null } : { code: null, message: null }),
        () => ({ code: null, message: null }),
      )
      .then((error) => {
        this.failureReads.delete(controller);
        if (controller.signal.aborted) return;
        this.jobFailedWith(jobId, messages.jobFailed(error));
        after();
      });
  }

  /**
   * A tool with `history.provisional` (face edit, 001 §4) shows a completed job at the top of its list at
   * once (the list's item of that job, listed while processing, moves there completed); the reload that
   * follows replaces it by the server's item.
   */
  private addProvisional(jobId: string, urls: string[], originalUrl: string | null): void {
    const h = this.definition.history;
    if (!h.provisional || this.state.history.query) return;
    const items = this.state.history.items;
    const existing = items.find((i) => h.jobOf(i).jobId === jobId);
    const temporary = h.provisional({ jobId, urls, originalUrl }, existing);
    this.update({ history: { ...this.state.history, items: [temporary, ...items.filter((i) => i !== existing)] } });
  }

  private jobFailedWith(jobId: string | null, message: ToolMessage): void {
    this.update({ job: { status: 'failed', jobId, message } });
    if (this.definition.messages.announceJobFailure) this.present(message);
  }

  /** A tool's message, its way: the dialog (dialog tools, page dialogs) or a toast. */
  private present(message: ToolMessage): void {
    if ('dialog' in message || this.definition.messages.display === 'dialog') this.update({ message });
    else this.deps.toast(message);
  }

  private store(): PendingJobStore | null {
    return this.userId === undefined ? null : (this.deps.pendingStore?.(this.userId) ?? null);
  }

  private remember(job: PendingJob): void {
    this.store()?.write(job);
  }

  private stopTracking(): void {
    this.cancelTrack?.();
    this.cancelTrack = null;
  }

  private update(patch: Partial<WorkspaceState<Item>>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}

function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}
