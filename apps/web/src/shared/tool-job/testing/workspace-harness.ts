import { afterEach, beforeEach, vi } from 'vitest';
import { JobEventsClient } from '../lib/job-events';
import type { ClientToolDefinition, ToolMessage } from '../lib/tool-definition';
import { ToolWorkspace, type PendingJob, type PendingJobStore } from '../lib/workspace';
import { FakeEventSource } from './fake-event-source';

/**
 * A tool's workspace as its page runs it, without React: the tool's real definition, a job event
 * stream on a FakeEventSource (opened), toasts and balance syncs recorded, a pending-job store in
 * memory. Use with fake timers (vi.useFakeTimers) and, for the tool's calls, installFakeApi.
 */
export function workspaceHarness<Item, CostInput, Api>(definition: ClientToolDefinition<Item, CostInput, Api>, opts: { online?: boolean } = {}) {
  const toasts: ToolMessage[] = [];
  const syncs = { count: 0 };
  let pending: PendingJob | null = null;
  const store: PendingJobStore = { read: () => pending, write: (job) => void (pending = job), clear: () => void (pending = null) };
  const events = new JobEventsClient({ createEventSource: (url) => new FakeEventSource(url) });
  events.retain(1);
  const es = FakeEventSource.latest();
  es.open();
  const ws = new ToolWorkspace(definition, {
    events,
    toast: (m) => toasts.push(m),
    balanceChanged: () => void (syncs.count += 1),
    pendingStore: () => store,
    online: () => opts.online ?? true,
  });
  const stop = ws.activate();
  return { ws, es, toasts, syncs, stop, pending: () => pending };
}

/** Let awaited calls answer (microtasks only; no time passes on the fake clock). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await vi.advanceTimersByTimeAsync(0);
}

/**
 * Registers the hooks every workspace test file needs (call once at the top of the file): before each
 * test a fresh FakeEventSource, fake timers and a quiet `console.warn`; after it real timers, mocks
 * restored and globals unstubbed.
 */
export function setUpWorkspaceTests(): void {
  beforeEach(() => {
    FakeEventSource.reset();
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
}
