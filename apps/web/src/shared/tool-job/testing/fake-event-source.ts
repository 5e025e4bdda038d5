import type { EventSourceLike } from '../lib/job-events';

/** A scripted EventSource for tests: the test opens, fails or feeds it. */
export class FakeEventSource implements EventSourceLike {
  static created: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  private readonly listeners = new Map<string, ((event: Event) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.created.push(this);
  }

  static reset(): void {
    FakeEventSource.created = [];
  }

  static latest(): FakeEventSource {
    const last = FakeEventSource.created.at(-1);
    if (!last) throw new Error('no EventSource was created');
    return last;
  }

  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  private emit(type: string, event: Event): void {
    for (const l of this.listeners.get(type) ?? []) l(event);
  }

  open(): void {
    this.readyState = 1;
    this.emit('open', new Event('open'));
  }

  /** A `job` message carrying `data` (an object is sent as JSON). */
  send(data: unknown, type = 'job'): void {
    this.emit(type, new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }

  /** The browser gave up (HTTP error or not an event stream): readyState CLOSED. */
  failFatally(): void {
    this.readyState = 2;
    this.emit('error', new Event('error'));
  }

  /** A network drop the browser will retry by itself: readyState CONNECTING. */
  drop(): void {
    this.readyState = 0;
    this.emit('error', new Event('error'));
  }
}
