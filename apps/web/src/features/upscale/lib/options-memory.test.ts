import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OPTIONS, updateOptions } from './options';
import { JOB_OPTIONS_KEPT, recallJobOptions, rememberJobOptions } from './options-memory';

/** A Map-backed localStorage on a stub window (the tests run without a DOM). */
function stubStorage() {
  const data = new Map<string, string>();
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    },
  });
  return data;
}

beforeEach(() => {
  stubStorage();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('options remembered per job and per user', () => {
  const western = updateOptions(DEFAULT_OPTIONS, { ethnicity: 'western', level: 'matte_makeup', scale: 1.5 });

  it('recalls what a job was started with, for that user only', () => {
    rememberJobOptions(1, 'job-a', western);
    expect(recallJobOptions(1, 'job-a')).toEqual(western);
    expect(recallJobOptions(2, 'job-a')).toBeNull();
    expect(recallJobOptions(1, 'job-b')).toBeNull();
    expect(recallJobOptions(1, null)).toBeNull();
  });

  it('keeps the newest entries only', () => {
    for (let i = 0; i < JOB_OPTIONS_KEPT + 5; i++) rememberJobOptions(1, `job-${i}`, DEFAULT_OPTIONS);
    expect(recallJobOptions(1, 'job-0')).toBeNull();
    expect(recallJobOptions(1, `job-${JOB_OPTIONS_KEPT + 4}`)).toEqual(DEFAULT_OPTIONS);
  });

  it('survives a corrupt entry', () => {
    const data = stubStorage();
    data.set('upscaleJobOptions:1', '{not json');
    expect(recallJobOptions(1, 'job-a')).toBeNull();
    rememberJobOptions(1, 'job-a', western);
    expect(recallJobOptions(1, 'job-a')).toEqual(western);
  });
});
