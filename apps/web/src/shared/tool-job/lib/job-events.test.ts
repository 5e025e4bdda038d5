import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOB_EVENTS_PATH, type JobEvent } from '@dewy/contracts';
import { FakeEventSource } from '../testing/fake-event-source';
import { JobEventsClient } from './job-events';

const progress = (jobId: string, stage: string, fraction: number) => ({ type: 'progress', jobId, source: 'upscale', stage, fraction });
const status = (jobId: string, s: string) => ({ type: 'status', jobId, source: 'upscale', status: s });

function makeClient(extra: Partial<ConstructorParameters<typeof JobEventsClient>[0]> = {}) {
  return new JobEventsClient({ createEventSource: (url) => new FakeEventSource(url), ...extra });
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

describe('JobEventsClient (GET /api/jobs/events)', () => {
  it('opens one stream for all holders, on the contract path, and reports it open', () => {
    const client = makeClient();
    const states: string[] = [];
    client.subscribeConnection(() => states.push(client.connection));
    client.retain(7);
    client.retain(7);
    expect(FakeEventSource.created).toHaveLength(1);
    expect(FakeEventSource.latest().url).toBe(JOB_EVENTS_PATH);
    FakeEventSource.latest().open();
    expect(states).toEqual(['connecting', 'open']);
  });

  it('keeps the latest progress and status per job and tells that job’s listeners', () => {
    const client = makeClient();
    client.retain(7);
    const es = FakeEventSource.latest();
    es.open();
    const seen: JobEvent[] = [];
    client.subscribeJob('a', (e) => seen.push(e));
    es.send(progress('a', 'faces', 0.2));
    es.send(progress('b', 'decode', 0.1));
    const first = client.job('a');
    expect(first).toEqual({ progress: { stage: 'faces', fraction: 0.2 }, status: null });
    expect(client.job('a')).toBe(first); // stable until the next event (useSyncExternalStore)
    es.send(status('a', 'completed'));
    expect(client.job('a')).toEqual({ progress: { stage: 'done', fraction: 1 }, status: 'completed' });
    expect(seen.map((e) => e.type)).toEqual(['progress', 'status']);
    expect(client.job('b')?.progress?.stage).toBe('decode');
  });

  it('ignores messages outside the contract and other event names', () => {
    const client = makeClient();
    client.retain(7);
    const es = FakeEventSource.latest();
    const seen: JobEvent[] = [];
    client.subscribeJob('a', (e) => seen.push(e));
    es.send('not json');
    es.send({ type: 'progress', jobId: 'a', source: 'upscale', stage: 'x', fraction: 3 });
    es.send({ type: 'other', jobId: 'a' });
    es.send(progress('a', 'faces', 0.5), 'message');
    expect(seen).toEqual([]);
    expect(client.job('a')).toBeUndefined();
  });

  it('degrades when the stream is absent (404): retries with backoff, then unavailable; a new job retries after the cooldown', () => {
    const client = makeClient({ retryBaseMs: 1000, maxFailures: 3, cooldownMs: 60_000 });
    client.retain(7);
    FakeEventSource.latest().failFatally();
    expect(client.connection).toBe('connecting');
    vi.advanceTimersByTime(999);
    expect(FakeEventSource.created).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.created).toHaveLength(2);
    FakeEventSource.latest().failFatally();
    vi.advanceTimersByTime(2000);
    expect(FakeEventSource.created).toHaveLength(3);
    FakeEventSource.latest().failFatally();
    expect(client.connection).toBe('unavailable');
    expect(FakeEventSource.latest().closed).toBe(true);
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.created).toHaveLength(3); // no more tries by itself
    client.connect();
    expect(FakeEventSource.created).toHaveLength(4); // cooldown passed: a new job tries again
  });

  it('stays put within the cooldown', () => {
    const client = makeClient({ maxFailures: 1, cooldownMs: 60_000 });
    client.retain(7);
    FakeEventSource.latest().failFatally();
    expect(client.connection).toBe('unavailable');
    vi.advanceTimersByTime(30_000);
    client.connect();
    expect(FakeEventSource.created).toHaveLength(1);
  });

  it('lets the browser reconnect after a drop and resets the failure count once open again', () => {
    const client = makeClient({ maxFailures: 3 });
    client.retain(7);
    const es = FakeEventSource.latest();
    es.open();
    es.drop();
    expect(client.connection).toBe('connecting');
    es.open();
    es.drop();
    es.open();
    es.drop();
    es.open();
    expect(client.connection).toBe('open');
    expect(FakeEventSource.created).toHaveLength(1);
  });

  it('closes a stream that keeps dropping without opening', () => {
    const client = makeClient({ maxFailures: 3 });
    client.retain(7);
    const es = FakeEventSource.latest();
    es.drop();
    es.drop();
    es.drop();
    expect(client.connection).toBe('unavailable');
    expect(es.closed).toBe(true);
  });

  it('closes after the last holder is gone for the linger time, and reopens for a new holder', () => {
    const client = makeClient({ lingerMs: 30_000 });
    const release = client.retain(7);
    const es = FakeEventSource.latest();
    es.open();
    release();
    vi.advanceTimersByTime(29_000);
    expect(es.closed).toBe(false);
    const again = client.retain(7); // another tool page within the linger time reuses it
    vi.advanceTimersByTime(10_000);
    expect(es.closed).toBe(false);
    again();
    vi.advanceTimersByTime(30_000);
    expect(es.closed).toBe(true);
    expect(client.connection).toBe('idle');
    client.retain(7);
    expect(FakeEventSource.created).toHaveLength(2);
  });

  it('starts over for another user: closes the stream and forgets the jobs', () => {
    const client = makeClient();
    client.retain(7);
    const es = FakeEventSource.latest();
    es.open();
    es.send(progress('a', 'faces', 0.2));
    client.retain(8);
    expect(es.closed).toBe(true);
    expect(client.job('a')).toBeUndefined();
    expect(FakeEventSource.created).toHaveLength(2);
  });

  it('is unavailable without EventSource', () => {
    const client = new JobEventsClient({ createEventSource: null });
    client.retain(7);
    expect(client.connection).toBe('unavailable');
  });
});
