import { afterAll, describe, expect, it } from 'vitest';
import { baseOptions, readPortrait, TEST_MODELS_DIR } from '../testing/portrait-fixtures';
import { createEnginePool } from './engine-pool';

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
});
