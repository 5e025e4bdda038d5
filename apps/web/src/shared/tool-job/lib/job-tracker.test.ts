import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobStatusResponse } from '@dewy/contracts';
import { FakeEventSource } from '../testing/fake-event-source';
import { JobEventsClient } from './job-events';
import { PUSH_CONFIRM_RETRY_MS, RESYNC_MIN_INTERVAL_MS, trackJob, type JobOutcome } from './job-tracker';
import { FACE_EDIT_POLLING_SCHEDULE, UPSCALE_POLLING_SCHEDULE } from './polling';

const processing: JobStatusResponse = { status: 'processing', imageUrl: null, originalImageUrl: 'o' };
const completed: JobStatusResponse = { status: 'completed', imageUrl: 'r', originalImageUrl: 'o' };
const failed: JobStatusResponse = { status: 'failed', imageUrl: null, originalImageUrl: 'o' };

/** A status endpoint whose answer the test sets, recording when it was asked (ms since start). */
function statusEndpoint() {
  const calls: number[] = [];
  const start = Date.now();
  let answer: JobStatusResponse | Error = processing;
  const fetchStatus = vi.fn(async () => {
    calls.push(Date.now() - start);
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { fetchStatus, calls, set: (a: JobStatusResponse | Error) => (answer = a) };
}

function stream() {
  const client = new JobEventsClient({ createEventSource: (url) => new FakeEventSource(url) });
  client.retain(1);
  return { client, es: FakeEventSource.latest() };
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

describe('trackJob: push with the spec’s polling as fallback (001 §4)', () => {
  it('without a stream, polls at exactly 2, 4, 8 s then 10–15 s, and settles on completion', async () => {
    const api = statusEndpoint();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: null, schedule: UPSCALE_POLLING_SCHEDULE, random: () => 0 }, (o) => outcomes.push(o));
    await vi.advanceTimersByTimeAsync(2000 + 4000 + 8000 + 10_000);
    expect(api.calls).toEqual([2000, 6000, 14_000, 24_000]);
    api.set(completed);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(outcomes).toEqual([{ status: 'completed', resultUrl: 'r', originalUrl: 'o', via: 'poll' }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.calls).toHaveLength(5);
  });

  it('retries a failed status request on the schedule and times out after 10 minutes', async () => {
    const api = statusEndpoint();
    api.set(new Error('network'));
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: null, schedule: UPSCALE_POLLING_SCHEDULE, random: () => 0.5 }, (o) => outcomes.push(o));
    await vi.advanceTimersByTimeAsync(599_000);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(outcomes).toEqual([{ status: 'failed', reason: 'timeout', via: 'poll' }]);
  });

  it('a completed event reads the signed URLs at once, well before the next poll', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    es.open();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    await vi.advanceTimersByTimeAsync(2500); // first poll at 2 s: processing
    expect(api.calls).toEqual([2000]);
    api.set(completed);
    es.send({ type: 'progress', jobId: 'j', source: 'upscale', stage: 'retouch', fraction: 0.8 });
    es.send({ type: 'status', jobId: 'j', source: 'upscale', status: 'completed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual([{ status: 'completed', resultUrl: 'r', originalUrl: 'o', via: 'push' }]);
    expect(api.calls).toEqual([2000, 2500]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.calls).toHaveLength(2); // polling stopped
  });

  it('a failed event fails the job at once without a request', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    es.open();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    es.send({ type: 'status', jobId: 'j', source: 'upscale', status: 'failed' });
    expect(outcomes).toEqual([{ status: 'failed', reason: 'failed', via: 'push' }]);
    expect(api.fetchStatus).not.toHaveBeenCalled();
  });

  it('ignores other jobs’ events', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    es.open();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    es.send({ type: 'status', jobId: 'other', source: 'upscale', status: 'failed' });
    await vi.advanceTimersByTimeAsync(100);
    expect(outcomes).toEqual([]);
  });

  it('when the status read after a completed event fails, tries once more shortly, and polling still runs', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    es.open();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    api.set(new Error('blip'));
    es.send({ type: 'status', jobId: 'j', source: 'upscale', status: 'completed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual([]);
    api.set(completed);
    await vi.advanceTimersByTimeAsync(PUSH_CONFIRM_RETRY_MS);
    expect(outcomes).toEqual([{ status: 'completed', resultUrl: 'r', originalUrl: 'o', via: 'push' }]);
  });

  it('reads the status once when the stream (re)opens while the job runs (missed events)', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    api.set(completed);
    es.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls).toEqual([0]);
    expect(outcomes[0]).toMatchObject({ status: 'completed', via: 'push' });
  });

  it('a stream that keeps reconnecting does not become a fast poller', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE, random: () => 0 }, () => undefined);
    for (let t = 0; t < 10_000; t += 500) {
      es.open();
      await vi.advanceTimersByTimeAsync(250);
      es.drop();
      await vi.advanceTimersByTimeAsync(250);
    }
    // two reconnection reads (0 s, 5 s) plus the schedule's polls at 2, 6 s
    expect(api.calls).toEqual([0, 2000, RESYNC_MIN_INTERVAL_MS, 6000]);
  });

  it('cancel stops everything: no request, no callback', async () => {
    const api = statusEndpoint();
    const { client, es } = stream();
    es.open();
    const onSettled = vi.fn();
    const cancel = trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: client, schedule: UPSCALE_POLLING_SCHEDULE }, onSettled);
    cancel();
    es.send({ type: 'status', jobId: 'j', source: 'upscale', status: 'failed' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.fetchStatus).not.toHaveBeenCalled();
    expect(onSettled).not.toHaveBeenCalled();
  });

  it('a status read answering failed fails the job', async () => {
    const api = statusEndpoint();
    api.set(failed);
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: null, schedule: UPSCALE_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    await vi.advanceTimersByTimeAsync(2000);
    expect(outcomes).toEqual([{ status: 'failed', reason: 'failed', via: 'poll' }]);
  });

  it('face edit: polls at 1 s, then 2, 2.5, 3.125 s… and times out after exactly 120 status reads', async () => {
    const api = statusEndpoint();
    const outcomes: JobOutcome[] = [];
    trackJob('j', Date.now(), { fetchStatus: api.fetchStatus, events: null, schedule: FACE_EDIT_POLLING_SCHEDULE }, (o) => outcomes.push(o));
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 2500);
    expect(api.calls).toEqual([1000, 3000, 5500]);
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(api.calls).toHaveLength(120);
    expect(outcomes).toEqual([{ status: 'failed', reason: 'timeout', via: 'poll' }]);
  });
});
