import { JOB_EVENTS, JOB_EVENTS_PATH, JobEventSchema, type JobEvent, type JobStatus } from '@dewy/contracts';

/**
 * The page's side of the job event stream (`GET /api/jobs/events`, contracts/jobs.ts): ONE EventSource
 * per page session, shared by every tool, holding the latest progress and status of each job it has
 * heard about. DOM-free (the EventSource and the timers are injected) so it is unit-tested with a fake.
 *
 * Degrading: when the stream is absent (404), refused (401) or keeps failing, it is closed after
 * `maxFailures` consecutive failures and reported `unavailable`; the tools' status polling (the spec's
 * schedule) carries on regardless. A later `connect()` (a new job) tries again once `cooldownMs` passed.
 */

/** The part of EventSource this client uses. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: Event) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

/** EventSource.readyState values. */
const CONNECTING = 0;
const CLOSED = 2;

export type JobEventsConnection = 'idle' | 'connecting' | 'open' | 'unavailable';

export interface JobProgress {
  /** Engine stage, e.g. decode, faces, resize, masks, retouch, encode. */
  stage: string;
  /** Completion of the whole job, 0..1. */
  fraction: number;
}

/** What the stream has said about one job (a new object on every change). */
export interface JobSnapshot {
  progress: JobProgress | null;
  status: JobStatus | null;
}

export interface JobEventsClientOptions {
  /** null when the browser has no EventSource: the client stays `unavailable`. */
  createEventSource: EventSourceFactory | null;
  url?: string;
  /** Consecutive failures before giving up for a while. */
  maxFailures?: number;
  /** First reconnect delay after the browser closed the stream (doubles per failure). */
  retryBaseMs?: number;
  /** How long `unavailable` lasts before connect() tries again. */
  cooldownMs?: number;
  /** How long the stream stays open after the last tool page released it (moving between tools). */
  lingerMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  now?: () => number;
}

type JobListener = (event: JobEvent) => void;
type Listener = () => void;

/** Jobs remembered at most (oldest forgotten first). */
const MAX_JOBS = 200;

export class JobEventsClient {
  private readonly opts: Required<Omit<JobEventsClientOptions, 'createEventSource'>> & { createEventSource: EventSourceFactory | null };
  private source: EventSourceLike | null = null;
  private state: JobEventsConnection = 'idle';
  private failures = 0;
  private unavailableSince = 0;
  private retryTimer: unknown = null;
  private lingerTimer: unknown = null;
  private holders = 0;
  private owner: unknown = undefined;
  private readonly jobs = new Map<string, JobSnapshot>();
  private readonly jobListeners = new Map<string, Set<JobListener>>();
  private readonly connectionListeners = new Set<Listener>();

  constructor(options: JobEventsClientOptions) {
    this.opts = {
      url: JOB_EVENTS_PATH,
      maxFailures: 3,
      retryBaseMs: JOB_EVENTS.retryMs,
      cooldownMs: 60_000,
      lingerMs: 30_000,
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
      now: () => Date.now(),
      ...options,
    };
    if (!options.createEventSource) this.state = 'unavailable';
  }

  get connection(): JobEventsConnection {
    return this.state;
  }

  /**
   * Hold the stream open for `owner` (the signed-in user's id) until the returned release is called.
   * A different owner than the current one closes the old stream and forgets its jobs first (the stream
   * is per session cookie). The stream closes `lingerMs` after the last holder released it.
   */
  retain(owner: unknown): () => void {
    if (owner !== this.owner) {
      this.disconnect();
      this.jobs.clear();
      this.owner = owner;
      this.failures = 0;
      if (this.opts.createEventSource) this.setState('idle');
    }
    this.holders += 1;
    this.cancelLinger();
    this.connect();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders = Math.max(0, this.holders - 1);
      if (this.holders === 0) {
        this.cancelLinger();
        this.lingerTimer = this.opts.setTimeout(() => {
          this.lingerTimer = null;
          if (this.holders === 0) this.disconnect();
        }, this.opts.lingerMs);
      }
    };
  }

  /** Open the stream unless it is open, opening, or given up on within the cooldown. */
  connect(): void {
    if (!this.opts.createEventSource || this.holders === 0) return;
    if (this.source || this.retryTimer !== null) return;
    if (this.state === 'unavailable') {
      if (this.opts.now() - this.unavailableSince < this.opts.cooldownMs) return;
      this.failures = 0;
    }
    this.open();
  }

  /** Close the stream now (sign-out, another user, nobody listening). */
  disconnect(): void {
    this.cancelRetry();
    this.cancelLinger();
    this.closeSource();
    if (this.state !== 'unavailable') this.setState('idle');
  }

  /** The latest the stream said about a job (stable object until the next event for it). */
  job(jobId: string): JobSnapshot | undefined {
    return this.jobs.get(jobId);
  }

  /** Events of one job, as they arrive. */
  subscribeJob(jobId: string, listener: JobListener): () => void {
    let set = this.jobListeners.get(jobId);
    if (!set) {
      set = new Set();
      this.jobListeners.set(jobId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.jobListeners.delete(jobId);
    };
  }

  /** Connection state changes. */
  subscribeConnection(listener: Listener): () => void {
    this.connectionListeners.add(listener);
    return () => {
      this.connectionListeners.delete(listener);
    };
  }

  /** Apply one message's data (exposed for tests; the EventSource listener calls it). */
  receive(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      console.warn('[job-events] ignoring a message that is not JSON');
      return;
    }
    const result = JobEventSchema.safeParse(parsed);
    if (!result.success) {
      console.warn('[job-events] ignoring a message outside the contract', result.error.issues[0]?.message);
      return;
    }
    const event = result.data;
    const prev = this.jobs.get(event.jobId) ?? { progress: null, status: null };
    const next: JobSnapshot =
      event.type === 'progress'
        ? { ...prev, progress: { stage: event.stage, fraction: event.fraction } }
        : { ...prev, status: event.status, progress: event.status === 'completed' ? { stage: 'done', fraction: 1 } : prev.progress };
    this.jobs.delete(event.jobId);
    this.jobs.set(event.jobId, next);
    if (this.jobs.size > MAX_JOBS) {
      const oldest = this.jobs.keys().next().value;
      if (oldest !== undefined) this.jobs.delete(oldest);
    }
    for (const listener of [...(this.jobListeners.get(event.jobId) ?? [])]) listener(event);
  }

  private open(): void {
    const create = this.opts.createEventSource;
    if (!create) return;
    this.setState('connecting');
    let source: EventSourceLike;
    try {
      source = create(this.opts.url);
    } catch (err) {
      console.warn('[job-events] EventSource could not be created', err);
      this.giveUp();
      return;
    }
    this.source = source;
    source.addEventListener('open', () => {
      if (this.source !== source) return;
      this.failures = 0;
      this.setState('open');
    });
    source.addEventListener(JOB_EVENTS.eventName, (event) => {
      if (this.source !== source) return;
      const data = (event as MessageEvent<unknown>).data;
      if (typeof data === 'string') this.receive(data);
    });
    source.addEventListener('error', () => {
      if (this.source !== source) return;
      this.failures += 1;
      if (this.failures >= this.opts.maxFailures) {
        this.giveUp();
        return;
      }
      if (source.readyState === CLOSED) {
        // The browser gave up on this response (HTTP error, not an event stream): try again later.
        this.closeSource();
        this.setState('connecting');
        const delay = this.opts.retryBaseMs * 2 ** (this.failures - 1);
        this.retryTimer = this.opts.setTimeout(() => {
          this.retryTimer = null;
          if (this.holders > 0) this.open();
          else this.setState('idle');
        }, delay);
      } else if (source.readyState === CONNECTING) {
        // The browser reconnects by itself (network blip); the polling covers the gap.
        this.setState('connecting');
      }
    });
  }

  private giveUp(): void {
    console.warn('[job-events] stream unavailable; status polling continues');
    this.cancelRetry();
    this.closeSource();
    this.unavailableSince = this.opts.now();
    this.setState('unavailable');
  }

  private closeSource(): void {
    const source = this.source;
    this.source = null;
    source?.close();
  }

  private cancelRetry(): void {
    if (this.retryTimer !== null) this.opts.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private cancelLinger(): void {
    if (this.lingerTimer !== null) this.opts.clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
  }

  private setState(next: JobEventsConnection): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.connectionListeners]) listener();
  }
}
