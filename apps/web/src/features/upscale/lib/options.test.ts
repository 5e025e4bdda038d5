import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, buildUpscaleInput, updateOptions } from './options';

describe('upscale options', () => {
  it('resets a level not offered to basic', () => {
    const glow = updateOptions(DEFAULT_OPTIONS, { level: 'glow' });
    expect(glow.level).toBe('glow');
    expect(updateOptions(glow, { ethnicity: 'western' }).level).toBe('basic');
  });
  it('sends paired exclusions and filter fields', () => {
    const opts = updateOptions(DEFAULT_OPTIONS, { excludeLips: true, excludeEyebrows: true, filter: 'ppoyong', strength: 0.75 });
    const input = buildUpscaleInput(opts, { imageUrl: 'u', width: 1000, height: 1200 }, 7);
    expect(input).toMatchObject({ upper_lip: true, lower_lip: true, left_eyebrow: true, right_eyebrow: true, filter_index: 1, filter_strength: 0.75, lora_index: 2, seed: 7 });
  });
});
