import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { faceEditImage } from '../inpaint/face-edit';
import { baseOptions, readPortrait, TEST_MODELS_DIR } from '../testing/portrait-fixtures';
import { createEnginePool } from './engine-pool';

/** White disc on black at the image size: a blemish-sized face-edit mask. */
function discMaskPng(w: number, h: number, cx: number, cy: number, r: number): Promise<Buffer> {
  const svg = `<svg width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="black"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="white"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('createEnginePool (piscina worker threads)', () => {
  const pool = createEnginePool({ modelsDir: TEST_MODELS_DIR, threads: 1 });
  afterAll(() => pool.destroy());

  it('runs a job on a worker thread and returns the encoded image', async () => {
    const input = await readPortrait('codeformer03_asian_female_400x225.jpg');
    const res = await pool.run(input, baseOptions({ scaleFactor: 0.5, outputFormat: 'jpg' }));
    expect(Buffer.isBuffer(res.bytes)).toBe(true);
    expect(res.bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect([res.width, res.height, res.meta.faces]).toEqual([200, 113, 1]);
    // the caller's buffer is not detached by the transfer
    expect(input.length).toBeGreaterThan(1000);
  });

  it('passes worker errors through with their code', async () => {
    await expect(pool.run(Buffer.from('not an image'), baseOptions())).rejects.toThrow(/NO_IMAGE_DECODE/);
  });

  it('honours an AbortSignal', async () => {
    const input = await readPortrait('obama_910x1137.jpg');
    const ac = new AbortController();
    const p = pool.run(input, baseOptions(), ac.signal);
    ac.abort();
    await expect(p).rejects.toThrow(/abort/i);
  });

  it('runs a face edit on the same workers, with its stages, and the same pixels as in-thread', async () => {
    const input = await readPortrait('rose_leslie_577x880.jpg');
    const mask = await discMaskPng(577, 880, 222, 330, 10);
    const stages: string[] = [];
    const res = await pool.faceEdit(input, mask, { seed: 5, strength: 1, resizeFactor: 1 }, undefined, (s) => { if (stages.at(-1) !== s) stages.push(s); });
    expect(res.mime).toBe('image/jpeg');
    expect(Buffer.isBuffer(res.buffer)).toBe(true);
    expect([res.width, res.height]).toEqual([577, 880]);
    expect(stages).toEqual(['decode', 'inpaint', 'blend', 'encode', 'done']);
    const local = await faceEditImage(input, mask, { seed: 5, strength: 1, resizeFactor: 1 });
    expect(res.buffer.equals(local.buffer)).toBe(true);
    // neither buffer was detached by the transfer
    expect(input.length).toBeGreaterThan(1000);
    expect(mask.length).toBeGreaterThan(100);
  });

  it('passes face-edit errors through with their message', async () => {
    const input = await readPortrait('rose_leslie_577x880.jpg');
    const black = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#000' } }).png().toBuffer();
    await expect(pool.faceEdit(input, black, { seed: 1, strength: 1, resizeFactor: 1 })).rejects.toThrow('EMPTY_MASK: mask is empty');
    await expect(pool.faceEdit(input, black, { seed: 1, strength: 1, resizeFactor: 9 })).rejects.toThrow(/INVALID_OPTIONS/);
  });

  it('aborts a running face edit', async () => {
    const input = await readPortrait('obama3_1434x2333.jpg');
    const mask = await discMaskPng(1434, 2333, 690, 470, 200);
    const ac = new AbortController();
    const p = pool.faceEdit(input, mask, { seed: 1, strength: 1, resizeFactor: 1 }, ac.signal, (stage) => { if (stage === 'inpaint') ac.abort(); });
    await expect(p).rejects.toThrow(/abort/i);
    // the pool still works afterwards (a fresh worker replaces the terminated one)
    const small = await pool.faceEdit(await readPortrait('rose_leslie_577x880.jpg'), await discMaskPng(577, 880, 222, 330, 8), { seed: 1, strength: 1, resizeFactor: 0.5 });
    expect([small.width, small.height]).toEqual([289, 440]);
  });
});
