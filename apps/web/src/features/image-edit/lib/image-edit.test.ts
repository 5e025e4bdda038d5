import { IMAGE_EDIT, type SeedreamStatusResponse } from '@dewy/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trackJob, type JobOutcome } from '../../../shared/tool-job/lib/job-tracker';
import { IMAGE_EDIT_POLLING_SCHEDULE } from '../../../shared/tool-job/lib/polling';
import type { ToolJobStatus } from '../../../shared/tool-job/lib/tool-definition';
import { imageEditStatus, imageEditTool } from '../tool';
import { autoPromptWithRetries, startImageEdit, type RunDeps } from './run-flow';
import { errorDialogFor, fileSizeError, fileTypeError, parseSeed, pixelError, presetOf, randomSeed, scaledSize, tilesForDrop } from './rules';

/** Fake deps on a virtual clock: sleep advances it. */
function fakeDeps(over: Partial<RunDeps> = {}): RunDeps & { clock: number; sleeps: number[] } {
  const d: RunDeps & { clock: number; sleeps: number[] } = {
    clock: 0,
    sleeps: [] as number[],
    autoPrompt: async () => ({ success: true, prompt: 'auto' }),
    generate: async () => ({ seedream_task_id: 'seedream-1' }),
    latestHistory: async () => [],
    sleep: async (ms: number) => {
      d.sleeps.push(ms);
      d.clock += ms;
    },
    now: (): number => d.clock,
    httpStatusOf: (e: unknown) => (e as { status?: number }).status,
    ...over,
  };
  return d;
}

describe('image-edit rules (002 §5)', () => {
  it('accepts only jpg/png up to 9 MB and at least 921600 px, with the size in the message', () => {
    expect(fileTypeError({ type: 'image/webp' })?.key).toBe('imageEdit.error.fileType');
    expect(fileTypeError({ type: 'image/png' })).toBeNull();
    expect(fileSizeError({ size: IMAGE_EDIT.maxBytes })).toBeNull();
    expect(fileSizeError({ size: IMAGE_EDIT.maxBytes + 1 })?.key).toBe('imageEdit.error.fileSize');
    expect(pixelError(960, 960)).toBeNull();
    expect(pixelError(1280, 719)).toEqual({ key: 'imageEdit.error.tooSmall', values: { width: 1280, height: 719 } });
  });
  it('scale is 2^value, sizes clamped to 1..4096; presets; seeds 1..100000', () => {
    expect(scaledSize(2048, 1024, 1)).toEqual({ width: 4096, height: 2048 });
    expect(scaledSize(3024, 1296, 2)).toEqual({ width: 4096, height: 4096 });
    expect(scaledSize(2048, 2048, -2)).toEqual({ width: 512, height: 512 });
    expect(presetOf(3024, 1296)).toBe('21:9');
    expect(presetOf(1440, 2560)).toBe('9:16');
    expect(presetOf(1000, 1000)).toBeNull();
    expect(randomSeed(() => 0)).toBe(1);
    expect(randomSeed(() => 0.999999)).toBe(100_000);
    expect(parseSeed('0')).toBeNull();
    expect(parseSeed('100001')).toBeNull();
    expect(parseSeed('1.5')).toBeNull();
    expect(parseSeed(' 42 ')).toBe(42);
  });
  it('a multi-file drop fills the next free tiles', () => {
    expect(tilesForDrop([true, false, true, false, false, false, false, false], 0, 3)).toEqual([1, 3, 4]);
    expect(tilesForDrop([true, true, true, true, true, true, true, false], 2, 3)).toEqual([7]);
  });
  it('maps the vendor codes to the 002 §8 dialogs', () => {
    expect(errorDialogFor('InvalidParameter.OversizeImage', '').messageKey).toBe('imageEdit.dialog.oversize');
    expect(errorDialogFor(undefined, 'image exceeds 10MB').messageKey).toBe('imageEdit.dialog.oversize');
    expect(errorDialogFor('InvalidParameter.AspectRatio', '').messageKey).toBe('imageEdit.dialog.aspect');
    expect(errorDialogFor('InvalidParameter', '').messageKey).toBe('imageEdit.dialog.invalid');
    expect(errorDialogFor('InputImageSensitiveContentDetected', '').messageKey).toBe('imageEdit.dialog.sensitive');
    expect(errorDialogFor('OutputImageSensitiveContentDetected', '').messageKey).toBe('imageEdit.dialog.sensitive');
    expect(errorDialogFor('InternalServiceError', '').messageKey).toBe('imageEdit.dialog.service');
    expect(errorDialogFor('GenerationFailed', 'x').messageKey).toBe('imageEdit.dialog.failed');
    expect(errorDialogFor('S3_PUT_FAILED', '').values).toEqual({ code: 'S3_PUT_FAILED' });
    expect(errorDialogFor(undefined, 'boom')).toMatchObject({ messageKey: 'imageEdit.dialog.error', values: { message: 'boom' } });
  });
});

describe('image-edit run (002 §4)', () => {
  it('auto prompt: 3 tries 1.5 s apart, then gives up', async () => {
    let calls = 0;
    const d = fakeDeps({
      autoPrompt: async () => {
        calls++;
        throw new Error('busy');
      },
    });
    expect(await autoPromptWithRetries(d, ['a', 'b', 'c', 'd', 'e'], '')).toBeNull();
    expect(calls).toBe(3);
    expect(d.sleeps).toEqual([1500, 1500]);
    const out = await startImageEdit(d, { prompt: 'p', autoPrompt: true, images: ['a'] });
    expect(out).toMatchObject({ kind: 'failed', code: 'AUTO_PROMPT_FAILED' });
  });
  it('sends at most 4 images to auto prompt and uses its prompt', async () => {
    let seen: string[] = [];
    let sent = '';
    const d = fakeDeps({
      autoPrompt: async (imgs) => {
        seen = imgs;
        return { success: true, prompt: 'better' };
      },
      generate: async (p) => {
        sent = p;
        return { seedream_task_id: 'seedream-1' };
      },
    });
    const out = await startImageEdit(d, { prompt: 'p', autoPrompt: true, images: ['1', '2', '3', '4', '5'] });
    expect(seen).toEqual(['1', '2', '3', '4']);
    expect(sent).toBe('better');
    expect(out).toMatchObject({ kind: 'started', taskId: 'seedream-1', prompt: 'better' });
  });
  it('HTTP 524: polls the history for a seedream- task made after the start', async () => {
    let reads = 0;
    const d = fakeDeps({
      generate: async () => {
        throw Object.assign(new Error('gateway'), { status: 524 });
      },
      latestHistory: async () => {
        reads++;
        const old = { seedream_task_id: 'seedream-old', created_at: new Date(-3_600_000).toISOString(), image_urls: ['old'] };
        return reads < 3 ? [old] : [{ seedream_task_id: 'seedream-new', created_at: new Date(0).toISOString(), image_urls: ['new'] }, old];
      },
    });
    const out = await startImageEdit(d, { prompt: 'p', autoPrompt: false, images: ['a'] });
    expect(out).toMatchObject({ kind: 'completed', urls: ['new'], taskId: 'seedream-new' });
    expect(reads).toBe(3);
  });
  it('another generate error fails at once with its code', async () => {
    const d = fakeDeps({
      generate: async () => {
        throw Object.assign(new Error('Not enough credits.'), { status: 400, code: 'INSUFFICIENT_CREDITS' });
      },
    });
    expect(await startImageEdit(d, { prompt: 'p', autoPrompt: false, images: ['a'] })).toMatchObject({ kind: 'failed', code: 'INSUFFICIENT_CREDITS' });
    expect(d.sleeps).toEqual([]);
  });
});

describe('image-edit job following (002 §4: status every 3 s for 240 s, imageEditTool)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Follow `seedream-1` on the tool's schedule with its status mapping, polling only; status read times in ms. */
  function follow(answer: (n: number) => SeedreamStatusResponse | Error) {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const start = Date.now();
    const calls: number[] = [];
    const outcomes: { outcome: JobOutcome; last: ToolJobStatus | null }[] = [];
    trackJob<ToolJobStatus>(
      'seedream-1',
      start,
      {
        fetchStatus: async () => {
          calls.push(Date.now() - start);
          const a = answer(calls.length);
          if (a instanceof Error) throw a;
          return imageEditStatus(a);
        },
        events: null,
        schedule: imageEditTool.schedule,
      },
      (outcome, last) => outcomes.push({ outcome, last }),
    );
    return { calls, outcomes };
  }

  it('polls every 3 s until completed; a failed status read just retries; failed carries the code', async () => {
    const run = follow((n) => {
      if (n === 1) return new Error('network');
      if (n < 4) return { success: true, status: 'processing', urls: [], partial: false, error: null };
      return { success: true, status: 'failed', urls: [], partial: false, error: { code: 'OutputImageSensitiveContentDetected', message: 'x' } };
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run.calls).toEqual([3000, 6000, 9000, 12_000]);
    expect(run.outcomes).toHaveLength(1);
    expect(run.outcomes[0]!.outcome).toMatchObject({ status: 'failed', reason: 'failed', via: 'poll' });
    const last = run.outcomes[0]!.last;
    expect(last).toMatchObject({ status: 'failed', error: 'OutputImageSensitiveContentDetected', errorMessage: 'x' });
    expect(imageEditTool.messages.jobFailed({ code: last?.error ?? null, message: last?.errorMessage ?? null })).toMatchObject({ key: 'imageEdit.dialog.sensitive' });
  });

  it('gives up after 240 s with a timeout', async () => {
    expect(imageEditTool.schedule).toBe(IMAGE_EDIT_POLLING_SCHEDULE);
    const run = follow(() => ({ success: true, status: 'processing', urls: [], partial: false, error: null }));
    await vi.advanceTimersByTimeAsync(IMAGE_EDIT.polling.timeoutMs + 10_000);
    expect(run.calls).toHaveLength(80);
    expect(run.calls.at(-1)).toBe(IMAGE_EDIT.polling.timeoutMs);
    expect(run.outcomes.map((o) => o.outcome)).toEqual([{ status: 'failed', reason: 'timeout', via: 'poll' }]);
    expect(imageEditTool.messages.jobTimeout).toMatchObject({ key: 'imageEdit.dialog.timeout', titleKey: 'imageEdit.dialog.timeoutTitle' });
  });

  it('a completed status shows up to 8 results and the partial flag; the stream names the job without its prefix', () => {
    const urls = Array.from({ length: 10 }, (_, i) => `u${i}`);
    expect(imageEditStatus({ success: true, status: 'completed', urls, partial: true, error: null })).toMatchObject({ status: 'completed', imageUrl: 'u0', images: urls.slice(0, 8), partial: true });
    expect(imageEditTool.eventJobId?.('seedream-0b6f1c9e-0000-4000-8000-000000000000')).toBe('0b6f1c9e-0000-4000-8000-000000000000');
    expect(imageEditTool.source).toBe('seedream');
  });
});
