import type { JobStatus } from '@dewy/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { FakeEventSource } from '../testing/fake-event-source';
import { JobEventsClient } from './job-events';
import { UPSCALE_POLLING_SCHEDULE } from './polling';
import type { ClientToolDefinition, ToolJobStatus, ToolMessage, ToolMessages } from './tool-definition';
import { PENDING_JOB_MAX_AGE_MS, ToolWorkspace, type PendingJob, type PendingJobStore, type StartResult } from './workspace';

/** A history item of the fake tool. */
interface Item {
  id: number;
  jobId: string | null;
  status: JobStatus;
  url: string | null;
}

/** The fake tool's server: its history, the status of each job, and every call with its time (ms since start). */
function fakeServer() {
  const start = Date.now();
  const server = {
    items: [] as Item[],
    /** More items than one page: the next offset the history answers. */
    nextOffset: null as number | null,
    historyError: null as unknown,
    /** While set, a history read waits for it (a latch the test releases). */
    historyGate: null as Promise<void> | null,
    status: new Map<string, ToolJobStatus | Error>(),
    statusCalls: [] as { id: string; at: number }[],
    historyCalls: [] as { offset: number; limit: number; q?: string }[],
  };
  return { server, start };
}
type Server = ReturnType<typeof fakeServer>['server'];

const processing: ToolJobStatus = { status: 'processing', imageUrl: null, originalImageUrl: 'o' };
const completed = (url: string): ToolJobStatus => ({ status: 'completed', imageUrl: url, originalImageUrl: 'o', images: [url] });

/** A tool on the fake server: the upscale schedule, history 10/15/10, messages overridable. */
function fakeTool(server: Server, start: number, over: { messages?: Partial<ToolMessages>; showLatest?: boolean; eventJobId?: (id: string) => string; provisional?: boolean; remove?: (items: Item[]) => Promise<void> } = {}) {
  const definition: ClientToolDefinition<Item, number> = {
    name: 'fake',
    source: 'upscale',
    schedule: UPSCALE_POLLING_SCHEDULE,
    readStatus: async (jobId) => {
      server.statusCalls.push({ id: jobId, at: Date.now() - start });
      const s = server.status.get(jobId) ?? processing;
      if (s instanceof Error) throw s;
      return s;
    },
    eventJobId: over.eventJobId,
    history: {
      paging: { first: 10, reload: 15, more: 10 },
      showLatest: over.showLatest ?? true,
      fetchPage: async (_userId, page) => {
        server.historyCalls.push({ ...page });
        if (server.historyGate) await server.historyGate;
        if (server.historyError) throw server.historyError;
        return { items: server.items.slice(page.offset, page.offset + page.limit), nextOffset: page.offset === 0 ? server.nextOffset : null };
      },
      keyOf: (item) => item.id,
      jobOf: (item) => ({ jobId: item.jobId, status: item.status, urls: item.url ? [item.url] : [], originalUrl: 'o' }),
      ...(over.remove ? { remove: over.remove } : {}),
      ...(over.provisional ? { provisional: (job: { jobId: string; urls: string[] }, existing: Item | undefined) => ({ id: existing?.id ?? -1, jobId: job.jobId, status: 'completed' as const, url: job.urls[0] ?? null }) } : {}),
    },
    messages: {
      display: 'toast',
      callFailed: (err) => ({ key: err instanceof ApiError ? `call.${err.code}` : 'call.other' }),
      jobFailed: ({ code }) => ({ key: `failed.${code ?? 'none'}` }),
      jobTimeout: { key: 'timeout' },
      failureByCode: false,
      announceJobFailure: true,
      ...over.messages,
    },
    cost: (n) => n * 10,
    api: {},
  };
  return definition;
}

/** A pending-job store in memory. */
function memoryStore(initial: PendingJob | null = null): PendingJobStore & { value: PendingJob | null } {
  const store = {
    value: initial,
    read: () => store.value,
    write: (job: PendingJob) => void (store.value = job),
    clear: () => void (store.value = null),
  };
  return store;
}

/** A workspace of the fake tool with a fake event stream, toasts and balance syncs recorded. */
function setup(over: Parameters<typeof fakeTool>[2] & { store?: ReturnType<typeof memoryStore>; stream?: boolean; online?: boolean } = {}) {
  const { server, start } = fakeServer();
  const toasts: ToolMessage[] = [];
  const opened: Item[] = [];
  const syncs = { count: 0 };
  const store = over.store ?? memoryStore();
  const events = over.stream === false ? null : new JobEventsClient({ createEventSource: (url) => new FakeEventSource(url) });
  events?.retain(1);
  const es = over.stream === false ? null : FakeEventSource.latest();
  const ws = new ToolWorkspace(fakeTool(server, start, over), {
    events,
    toast: (m) => toasts.push(m),
    balanceChanged: () => void (syncs.count += 1),
    pendingStore: () => store,
    onOpenItem: (item) => opened.push(item as Item),
    online: () => over.online ?? true,
  });
  const stop = ws.activate();
  return { ws, server, toasts, opened, syncs, store, es, events, stop };
}

/** Let the awaited fakes answer (microtasks; no time passes). */
async function settle() {
  for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  FakeEventSource.reset();
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ToolWorkspace: resume after a reload (001 §4)', () => {
  it('follows a processing item of the first history page, opened with what it was made with, and shows its pushed result at once', async () => {
    const t = setup();
    t.es?.open();
    t.server.items = [{ id: 2, jobId: 'j2', status: 'processing', url: null }, { id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    t.ws.setUser(7);
    await settle();
    expect(t.server.historyCalls).toEqual([{ offset: 0, limit: 10, q: undefined }]);
    expect(t.ws.getState().job).toMatchObject({ status: 'processing', jobId: 'j2' });
    expect(t.ws.getState().selectedKey).toBe(2);
    expect(t.opened.map((i) => i.id)).toEqual([2]);

    await vi.advanceTimersByTimeAsync(2000); // the schedule's first poll runs underneath
    expect(t.server.statusCalls.map((c) => c.at)).toEqual([2000]);
    t.server.status.set('j2', completed('r2'));
    t.es?.send({ type: 'status', jobId: 'j2', source: 'upscale', status: 'completed' });
    await settle();
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', jobId: 'j2', resultUrl: 'r2', urls: ['r2'], via: 'push' });
    expect(t.server.statusCalls.map((c) => c.at)).toEqual([2000, 2000]); // read at once, not at the next poll
    // the history reloads (as many as shown, at least 15) and the balance re-syncs (a charge or a refund)
    expect(t.server.historyCalls.at(-1)).toEqual({ offset: 0, limit: 15, q: undefined });
    expect(t.syncs.count).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.server.statusCalls).toHaveLength(2); // polling stopped
  });

  it('with a photo of this visit on the workspace, only follows the running job (the photo stays)', async () => {
    const t = setup();
    t.server.items = [{ id: 2, jobId: 'j2', status: 'processing', url: null }];
    t.ws.setInputPicked(true);
    t.ws.setUser(7);
    await settle();
    expect(t.ws.getState().job).toMatchObject({ status: 'processing', jobId: 'j2' });
    expect(t.ws.getState().selectedKey).toBe(2);
    expect(t.opened).toEqual([]);
  });

  it('shows the newest result when nothing else is on the workspace, and not over a picked photo', async () => {
    const a = setup();
    a.server.items = [{ id: 3, jobId: 'j3', status: 'failed', url: null }, { id: 2, jobId: 'j2', status: 'completed', url: 'r2' }];
    a.ws.setUser(7);
    await settle();
    expect(a.ws.getState().job).toMatchObject({ status: 'completed', resultUrl: 'r2', via: 'history' });
    expect(a.ws.getState().selectedKey).toBe(2);

    const b = setup();
    b.server.items = a.server.items;
    b.ws.setInputPicked(true);
    b.ws.setUser(7);
    await settle();
    expect(b.ws.getState().job).toEqual({ status: 'idle' });

    const c = setup({ showLatest: false });
    c.server.items = a.server.items;
    c.ws.setUser(7);
    await settle();
    expect(c.ws.getState().job).toEqual({ status: 'idle' });
  });

  it('resumes a job this browser started when the history lists no running job (completed-only lists, 002 §7)', async () => {
    const store = memoryStore({ jobId: 'j9', originalUrl: 'blob:o', savedAt: Date.now() });
    const t = setup({ store, showLatest: false });
    t.server.items = [{ id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    t.ws.setUser(7);
    await settle();
    expect(t.ws.getState().job).toMatchObject({ status: 'processing', jobId: 'j9', originalUrl: 'blob:o' });
    t.server.status.set('j9', completed('r9'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', resultUrl: 'r9', via: 'poll' });
    expect(store.value).toBeNull();
  });

  it('forgets a remembered job the history shows as settled, or one older than the longest polling', async () => {
    const settled = memoryStore({ jobId: 'j1', originalUrl: null, savedAt: Date.now() });
    const a = setup({ store: settled, showLatest: false });
    a.server.items = [{ id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    a.ws.setUser(7);
    await settle();
    expect(a.ws.getState().job).toEqual({ status: 'idle' });
    expect(settled.value).toBeNull();

    const old = memoryStore({ jobId: 'j5', originalUrl: null, savedAt: Date.now() - PENDING_JOB_MAX_AGE_MS });
    const b = setup({ store: old, showLatest: false });
    b.ws.setUser(7);
    await settle();
    expect(b.ws.getState().job).toEqual({ status: 'idle' });
    expect(old.value).toBeNull();
  });

  it('a job started here is remembered until it settles', async () => {
    const t = setup();
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j4', originalUrl: 'blob:p', selectKey: 40 }));
    expect(t.store.value).toMatchObject({ jobId: 'j4', originalUrl: 'blob:p' });
    expect(t.ws.getState().selectedKey).toBe(40);
    t.server.status.set('j4', { status: 'failed', imageUrl: null, originalImageUrl: null, error: 'X' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.ws.getState().job).toMatchObject({ status: 'failed', message: { key: 'failed.X' } });
    expect(t.store.value).toBeNull();
  });
});

describe('ToolWorkspace: a completed result as a temporary history item (001 §4, face edit)', () => {
  it('goes to the top of the list at once, and the reload replaces it by the server’s item (never both)', async () => {
    const t = setup({ provisional: true });
    t.server.items = [{ id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j5', originalUrl: 'blob:p' }));
    await settle();
    const reads = t.server.historyCalls.length;
    let release = () => {};
    t.server.historyGate = new Promise<void>((r) => (release = r));
    t.server.status.set('j5', completed('r5'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', jobId: 'j5', resultUrl: 'r5' });
    // the reload is under way and held: the result is already on top
    expect(t.server.historyCalls).toHaveLength(reads + 1);
    expect(t.ws.getState().history.items.map((i) => [i.id, i.jobId, i.url])).toEqual([[-1, 'j5', 'r5'], [1, 'j1', 'r1']]);
    t.server.items = [{ id: 5, jobId: 'j5', status: 'completed', url: 'r5' }, ...t.server.items];
    t.server.historyGate = null;
    release();
    await settle();
    expect(t.ws.getState().history.items.map((i) => i.id)).toEqual([5, 1]);
  });

  it('the item the list holds for the job (listed while processing) moves to the top completed, keeping its key', async () => {
    const t = setup({ provisional: true });
    t.server.items = [{ id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    t.ws.setUser(7);
    await settle();
    t.server.items = [{ id: 2, jobId: 'j1b', status: 'completed', url: 'r1b' }, { id: 8, jobId: 'j8', status: 'processing', url: null }, ...t.server.items];
    await t.ws.start(async () => ({ jobId: 'j8', originalUrl: 'blob:p' }));
    await settle();
    expect(t.ws.getState().history.items.map((i) => [i.id, i.status])).toEqual([[2, 'completed'], [8, 'processing'], [1, 'completed']]);
    t.server.historyGate = new Promise<void>(() => {});
    t.server.status.set('j8', completed('r8'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.ws.getState().history.items.map((i) => [i.id, i.status, i.url])).toEqual([[8, 'completed', 'r8'], [2, 'completed', 'r1b'], [1, 'completed', 'r1']]);
  });

  it('a tool without it waits for the reload; a failed job adds nothing', async () => {
    const t = setup();
    t.server.items = [{ id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j6', originalUrl: 'blob:p' }));
    await settle();
    t.server.historyGate = new Promise<void>(() => {});
    t.server.status.set('j6', completed('r6'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', jobId: 'j6' });
    expect(t.ws.getState().history.items.map((i) => i.id)).toEqual([1]);

    const f = setup({ provisional: true });
    f.ws.setUser(7);
    await settle();
    await f.ws.start(async () => ({ jobId: 'j7', originalUrl: 'blob:p' }));
    f.server.status.set('j7', { status: 'failed', imageUrl: null, originalImageUrl: null, error: 'X' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(f.ws.getState().job.status).toBe('failed');
    expect(f.ws.getState().history.items).toEqual([]);
  });
});

describe('ToolWorkspace: deleting history items (issue 28, point 12)', () => {
  it('drops them from the list, takes their result off the stage, says so and reads the list again; a refusal changes nothing', async () => {
    const removed: number[][] = [];
    let refuse: Error | null = null;
    const t = setup({
      remove: async (items) => {
        if (refuse) throw refuse;
        removed.push(items.map((i) => i.id));
        t.server.items = t.server.items.filter((i) => !items.some((x) => x.id === i.id));
      },
    });
    t.server.items = [{ id: 2, jobId: 'j2', status: 'completed', url: 'r2' }, { id: 1, jobId: 'j1', status: 'completed', url: 'r1' }];
    t.ws.setUser(7);
    await settle();
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', jobId: 'j2' }); // the newest is shown
    const reads = t.server.historyCalls.length;

    refuse = new ApiError(409, 'JOB_IN_PROGRESS', 'still processing', 'still processing', null);
    await expect(t.ws.deleteHistory([t.server.items[1]!])).rejects.toBe(refuse);
    expect(t.ws.getState().history.items.map((i) => i.id)).toEqual([2, 1]);
    expect(t.toasts.at(-1)).toEqual({ text: 'still processing' });

    refuse = null;
    await t.ws.deleteHistory([t.server.items[0]!]);
    expect(removed).toEqual([[2]]);
    expect(t.ws.getState().history.items.map((i) => i.id)).toEqual([1]);
    expect(t.ws.getState().job.status).toBe('idle');
    expect(t.toasts.at(-1)).toMatchObject({ key: 'toolJob.history.deletedOne', values: { count: 1 }, tone: 'success' });
    await settle();
    expect(t.server.historyCalls.length).toBe(reads + 1);
    expect(t.syncs.count).toBe(0); // nothing refunded: no balance change to sync
  });
});

describe('ToolWorkspace: push with the spec’s polling as fallback', () => {
  it('when the stream drops, the polling alone settles the job on its exact schedule', async () => {
    const t = setup();
    t.es?.open();
    t.ws.setUser(7);
    await settle();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await t.ws.start(async () => ({ jobId: 'j1' }));
    t.es?.send({ type: 'progress', jobId: 'j1', source: 'upscale', stage: 'retouch', fraction: 0.4 });
    t.es?.drop(); // the network went: the browser keeps trying, nothing more arrives
    expect(t.events?.connection).toBe('connecting');
    await vi.advanceTimersByTimeAsync(2000 + 4000 + 8000);
    expect(t.server.statusCalls.map((c) => c.at)).toEqual([2000, 6000, 14_000]);
    t.server.status.set('j1', completed('r1'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', resultUrl: 'r1', via: 'poll' });
    expect(t.server.statusCalls.map((c) => c.at)).toEqual([2000, 6000, 14_000, 24_000]);
  });

  it('a stream that reopens reads the status once (events sent while it was down are lost)', async () => {
    const t = setup();
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j1' }));
    t.server.status.set('j1', completed('r1'));
    t.es?.open();
    await settle();
    expect(t.server.statusCalls.map((c) => c.at)).toEqual([0]);
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', via: 'push' });
  });

  it('applies only its own tool’s events, under the id the stream uses for the job', async () => {
    const t = setup({ eventJobId: (id) => id.replace(/^task-/, '') });
    t.es?.open();
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'task-j1' }));
    t.es?.send({ type: 'status', jobId: 'j1', source: 'face_edit', status: 'failed' });
    t.es?.send({ type: 'status', jobId: 'task-j1', source: 'upscale', status: 'failed' });
    await settle();
    expect(t.ws.getState().job.status).toBe('processing');
    t.es?.send({ type: 'status', jobId: 'j1', source: 'upscale', status: 'failed' });
    await settle();
    expect(t.ws.getState().job).toMatchObject({ status: 'failed', jobId: 'task-j1', message: { key: 'failed.none' } });
    expect(t.toasts).toEqual([{ key: 'failed.none' }]);
  });

  it('a pushed failure of a tool whose message depends on the reason reads the status once for its code', async () => {
    const t = setup({ messages: { failureByCode: true } });
    t.es?.open();
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j1' }));
    t.server.status.set('j1', { status: 'failed', imageUrl: null, originalImageUrl: null, error: 'VENDOR_BUSY' });
    t.es?.send({ type: 'status', jobId: 'j1', source: 'upscale', status: 'failed' });
    await settle();
    expect(t.server.statusCalls.map((c) => c.at)).toEqual([0]);
    expect(t.ws.getState().job).toMatchObject({ status: 'failed', message: { key: 'failed.VENDOR_BUSY' } });
    expect(t.toasts).toEqual([{ key: 'failed.VENDOR_BUSY' }]);
  });

  it('a timeout is the tool’s timeout message; a tool that shows failures on its stage only does not announce them', async () => {
    const t = setup({ stream: false, messages: { announceJobFailure: false } });
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j1' }));
    await vi.advanceTimersByTimeAsync(11 * 60_000);
    expect(t.ws.getState().job).toMatchObject({ status: 'failed', message: { key: 'timeout' } });
    expect(t.toasts).toEqual([]);
  });

  it('stopping the workspace (unmount) stops the polling; starting it again follows the job again', async () => {
    const t = setup({ stream: false });
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j1' }));
    t.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.server.statusCalls).toEqual([]);
    t.ws.activate();
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.server.statusCalls).toHaveLength(1);
  });
});

describe('ToolWorkspace: errors through the tool’s catalogue; an ended session says nothing of its own (issue 17)', () => {
  const ended = () => new ApiError(401, 'SESSION_EXPIRED', 'x', 'x', null, true);

  it('a failed create call goes through the catalogue; one that ended the session shows nothing', async () => {
    const t = setup();
    t.ws.setUser(7);
    await settle();
    expect(await t.ws.start(async () => Promise.reject(new ApiError(400, 'INSUFFICIENT_CREDITS', 'x', undefined, null)))).toBe(false);
    expect(t.toasts).toEqual([{ key: 'call.INSUFFICIENT_CREDITS' }]);
    expect(t.ws.getState()).toMatchObject({ submitting: false, job: { status: 'idle' } });
    await t.ws.start(async () => Promise.reject(ended()));
    expect(t.toasts).toHaveLength(1);
  });

  it('a history that fails says so, unless the session ended', async () => {
    const a = setup();
    a.server.historyError = new ApiError(500, 'INTERNAL', 'x', undefined, null);
    a.ws.setUser(7);
    await settle();
    expect(a.toasts).toEqual([{ key: 'toolJob.error.historyLoad' }]);
    expect(a.ws.getState().history.loading).toBe(false);

    const b = setup();
    b.server.historyError = ended();
    b.ws.setUser(7);
    await settle();
    expect(b.toasts).toEqual([]);
    b.server.historyError = null;
    b.server.items = Array.from({ length: 10 }, (_, i) => ({ id: i, jobId: `j${i}`, status: 'completed' as const, url: `r${i}` }));
    b.server.nextOffset = 10;
    b.ws.reloadHistory();
    await settle();
    b.server.historyError = ended();
    await b.ws.loadMore();
    expect(b.toasts).toEqual([]);
  });

  it('signing out (the session ended) stops following the job: no status read meets a 401', async () => {
    const t = setup({ stream: false });
    t.ws.setUser(7);
    await settle();
    await t.ws.start(async () => ({ jobId: 'j1' }));
    t.ws.setUser(undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.server.statusCalls).toEqual([]);
    expect(t.ws.getState().job).toEqual({ status: 'idle' });
  });

  it('a dialog tool shows every message in its dialog; page dialogs go there for a toast tool too', async () => {
    const d = setup({ messages: { display: 'dialog' } });
    d.ws.setUser(7);
    await settle();
    await d.ws.start(async () => Promise.reject(new ApiError(400, 'MASK_EMPTY', 'x', undefined, null)));
    expect(d.ws.getState().message).toEqual({ key: 'call.MASK_EMPTY' });
    expect(d.toasts).toEqual([]);
    d.ws.dismissMessage();
    expect(d.ws.getState().message).toBeNull();

    const t = setup();
    t.ws.say({ dialog: 'blocked' });
    expect(t.ws.getState().message).toEqual({ dialog: 'blocked' });
    expect(t.toasts).toEqual([]);
  });

  it('a create step that stopped says why and starts nothing; a known result or failure is shown as it is', async () => {
    const t = setup({ stream: false });
    t.ws.setUser(7);
    await settle();
    const run = (r: StartResult) => t.ws.start(async () => r);
    expect(await run({ stopped: { key: 'stopped' } })).toBe(false);
    expect(t.toasts).toEqual([{ key: 'stopped' }]);
    await run({ completed: { jobId: 't1', urls: ['a', 'b'], partial: true } });
    expect(t.ws.getState().job).toMatchObject({ status: 'completed', resultUrl: 'a', urls: ['a', 'b'], partial: true });
    await run({ failed: { code: 'AUTO_PROMPT_FAILED' } });
    expect(t.ws.getState().job).toMatchObject({ status: 'failed', message: { key: 'failed.AUTO_PROMPT_FAILED' } });
    await run({ timeout: true });
    expect(t.ws.getState().job).toMatchObject({ status: 'failed', message: { key: 'timeout' } });
  });
});

describe('ToolWorkspace: history', () => {
  it('loads more, never repeats an item, and reloads as many as shown', async () => {
    const t = setup({ showLatest: false });
    t.server.items = Array.from({ length: 25 }, (_, i) => ({ id: 100 - i, jobId: `j${i}`, status: 'completed' as const, url: `r${i}` }));
    t.server.nextOffset = 10;
    t.ws.setUser(7);
    await settle();
    expect(t.ws.getState().history).toMatchObject({ hasMore: true, loading: false });
    await t.ws.loadMore();
    expect(t.server.historyCalls.at(-1)).toEqual({ offset: 10, limit: 10, q: undefined });
    expect(t.ws.getState().history.items).toHaveLength(20);
    expect(t.ws.getState().history.hasMore).toBe(false);
    t.ws.reloadHistory();
    await settle();
    expect(t.server.historyCalls.at(-1)).toEqual({ offset: 0, limit: 20, q: undefined });
    t.ws.search('  cat ');
    await settle();
    expect(t.server.historyCalls.at(-1)).toEqual({ offset: 0, limit: 10, q: 'cat' });
  });

  it('a click takes effect after 300 ms of quiet, the last one wins, and it is refused while a job runs', async () => {
    const t = setup({ showLatest: false, stream: false });
    const a: Item = { id: 1, jobId: 'j1', status: 'completed', url: 'r1' };
    const b: Item = { id: 2, jobId: 'j2', status: 'completed', url: 'r2' };
    t.ws.setUser(7);
    await settle();
    t.ws.selectHistory(a);
    await vi.advanceTimersByTimeAsync(200);
    t.ws.selectHistory(b);
    await vi.advanceTimersByTimeAsync(299);
    expect(t.ws.getState().selectedKey).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.ws.getState()).toMatchObject({ selectedKey: 2, job: { status: 'completed', resultUrl: 'r2', via: 'history' } });
    expect(t.opened.map((i) => i.id)).toEqual([2]);

    await t.ws.start(async () => ({ jobId: 'j3' }));
    t.ws.selectHistory(a);
    await vi.advanceTimersByTimeAsync(300);
    expect(t.toasts).toEqual([{ key: 'toolJob.history.busy', tone: 'info' }]);
    expect(t.ws.getState().job).toMatchObject({ status: 'processing', jobId: 'j3' });
  });

  it('a new photo drops the shown result and the selection', async () => {
    const t = setup();
    t.server.items = [{ id: 2, jobId: 'j2', status: 'completed', url: 'r2' }];
    t.ws.setUser(7);
    await settle();
    expect(t.ws.getState().job.status).toBe('completed');
    t.ws.inputChanged();
    expect(t.ws.getState()).toMatchObject({ job: { status: 'idle' }, selectedKey: null });
  });
});
