import { IMAGE_EDIT } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import { autoPromptWithRetries, runImageEdit, type RunDeps } from './run-flow';
import { errorDialogFor, fileSizeError, fileTypeError, parseSeed, pixelError, presetOf, randomSeed, scaledSize, tilesForDrop } from './rules';

/** Fake deps on a virtual clock: sleep advances it. */
function fakeDeps(over: Partial<RunDeps> = {}): RunDeps & { clock: number; sleeps: number[] } {
  const d: RunDeps & { clock: number; sleeps: number[] } = {
    clock: 0,
    sleeps: [] as number[],
    autoPrompt: async () => ({ success: true, prompt: 'auto' }),
    generate: async () => ({ seedream_task_id: 'seedream-1' }),
    status: async () => ({ status: 'completed', urls: ['u1'], partial: false, error: null }),
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
    const out = await runImageEdit(d, { prompt: 'p', autoPrompt: true, images: ['a'] });
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
    const out = await runImageEdit(d, { prompt: 'p', autoPrompt: true, images: ['1', '2', '3', '4', '5'] });
    expect(seen).toEqual(['1', '2', '3', '4']);
    expect(sent).toBe('better');
    expect(out).toMatchObject({ kind: 'completed', urls: ['u1'], prompt: 'better' });
  });
  it('polls every 3 s until completed; a failed status read just retries; failed carries the code', async () => {
    let n = 0;
    const d = fakeDeps({
      status: async () => {
        n++;
        if (n === 1) throw new Error('network');
        if (n < 4) return { status: 'processing', urls: [], partial: false, error: null };
        return { status: 'failed', urls: [], partial: false, error: { code: 'OutputImageSensitiveContentDetected', message: 'x' } };
      },
    });
    const out = await runImageEdit(d, { prompt: 'p', autoPrompt: false, images: ['a'] });
    expect(out).toMatchObject({ kind: 'failed', code: 'OutputImageSensitiveContentDetected' });
    expect(d.sleeps).toEqual([3000, 3000, 3000, 3000]);
  });
  it('gives up after 240 s with a timeout', async () => {
    const d = fakeDeps({ status: async () => ({ status: 'processing', urls: [], partial: false, error: null }) });
    const out = await runImageEdit(d, { prompt: 'p', autoPrompt: false, images: ['a'] });
    expect(out.kind).toBe('timeout');
    expect(d.sleeps).toHaveLength(80);
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
    const out = await runImageEdit(d, { prompt: 'p', autoPrompt: false, images: ['a'] });
    expect(out).toMatchObject({ kind: 'completed', urls: ['new'], taskId: 'seedream-new' });
    expect(reads).toBe(3);
  });
  it('another generate error fails at once with its code', async () => {
    const d = fakeDeps({
      generate: async () => {
        throw Object.assign(new Error('Not enough credits.'), { status: 400, code: 'INSUFFICIENT_CREDITS' });
      },
    });
    expect(await runImageEdit(d, { prompt: 'p', autoPrompt: false, images: ['a'] })).toMatchObject({ kind: 'failed', code: 'INSUFFICIENT_CREDITS' });
    expect(d.sleeps).toEqual([]);
  });
});
