import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, asUpscaleOptions, buildUpscaleInput, dewySkinLabel, optionsFromInput, updateOptions } from './options';

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

describe('options of a past job (history item input)', () => {
  const serverInput = (patch: Record<string, unknown>) => ({
    image: 'u',
    seed: 42,
    prompt: '',
    output_format: 'jpg',
    output_quality: 100,
    lora_index: 2,
    numImages: 1,
    scale_factor: 1,
    upper_lip: false,
    lower_lip: false,
    filter_strength: 0.01,
    filter_index: 0,
    filter_prompt: '',
    left_eyebrow: false,
    right_eyebrow: false,
    nose: false,
    hair: false,
    ...patch,
  });

  it('round-trips what the page sends for every gender × ethnicity × level', () => {
    for (const gender of ['male', 'female'] as const) {
      for (const ethnicity of ['east_asian', 'western'] as const) {
        for (const level of ['basic', 'makeup', 'matte_makeup', 'glow', 'basic_chic'] as const) {
          const opts = updateOptions(DEFAULT_OPTIONS, { gender, ethnicity, level, scale: 1.3, filter: 'studio', strength: 0.35, excludeNose: true, excludeHair: true });
          const sent = buildUpscaleInput(opts, { imageUrl: 'u', width: 1000, height: 1000 }, 7);
          // with the remembered choice: exact
          expect(optionsFromInput(sent, opts), `${gender}/${ethnicity}/${level}`).toEqual(opts);
          // without: same model index, same everything else
          const guessed = optionsFromInput(sent);
          expect(guessed && buildUpscaleInput(guessed, { imageUrl: 'u', width: 1000, height: 1000 }, 7)).toEqual(sent);
        }
      }
    }
  });

  it('reads index 7 (matte makeup) as East Asian unless Western was remembered', () => {
    const input = serverInput({ lora_index: 7 });
    expect(optionsFromInput(input)).toMatchObject({ gender: 'female', ethnicity: 'east_asian', level: 'matte_makeup' });
    const western = updateOptions(DEFAULT_OPTIONS, { ethnicity: 'western', level: 'matte_makeup' });
    expect(optionsFromInput(input, western)).toMatchObject({ gender: 'female', ethnicity: 'western', level: 'matte_makeup' });
  });

  it('ignores a remembered choice that does not match the job’s model index', () => {
    const remembered = updateOptions(DEFAULT_OPTIONS, { gender: 'male', ethnicity: 'western' }); // index 5
    expect(optionsFromInput(serverInput({ lora_index: 4 }), remembered)).toMatchObject({ gender: 'female', ethnicity: 'western', level: 'makeup' });
  });

  it('takes scale, filter, strength and exclusions from the input', () => {
    const opts = optionsFromInput(serverInput({ scale_factor: 1.9, filter_index: 1, filter_prompt: 'asle filter', filter_strength: 0.75, upper_lip: true, lower_lip: true, left_eyebrow: true, right_eyebrow: true }));
    expect(opts).toMatchObject({ scale: 1.9, filter: 'ppoyong', strength: 0.75, excludeLips: true, excludeEyebrows: true, excludeNose: false, excludeHair: false });
    expect(optionsFromInput(serverInput({ filter_prompt: 'studio filter', filter_strength: 0.4 }))).toMatchObject({ filter: 'studio', strength: 0.4 });
    expect(optionsFromInput(serverInput({}))).toMatchObject({ filter: 'none', strength: DEFAULT_OPTIONS.strength, scale: 1 });
    expect(optionsFromInput(serverInput({ scale_factor: 0.1 }))?.scale).toBe(0.1);
  });

  it('gives null for anything that is not an upscale input', () => {
    expect(optionsFromInput(null)).toBeNull();
    expect(optionsFromInput({ prompt: 'a cat' })).toBeNull();
  });

  it('accepts only complete stored options', () => {
    expect(asUpscaleOptions(DEFAULT_OPTIONS)).toEqual(DEFAULT_OPTIONS);
    expect(asUpscaleOptions({ ...DEFAULT_OPTIONS, level: 'sparkle' })).toBeNull();
    expect(asUpscaleOptions({ ...DEFAULT_OPTIONS, scale: 9 })).toBeNull();
    expect(asUpscaleOptions('x')).toBeNull();
  });
});

describe('dewy skin (glow) and its label (001 §9)', () => {
  it('choosing dewy skin presets the fair-skin filter at 0.75; the customer may change it; restoring a past job keeps its own filter', () => {
    const glow = updateOptions(DEFAULT_OPTIONS, { level: 'glow' });
    expect(glow).toMatchObject({ level: 'glow', filter: 'ppoyong', strength: 0.75 });
    expect(buildUpscaleInput(glow, { imageUrl: 'u', width: 1000, height: 1200 }, 7)).toMatchObject({ lora_index: 1, filter_index: 1, filter_strength: 0.75 });
    // changed afterwards: kept (the preset applies only on the way into dewy skin)
    const studio = updateOptions(glow, { filter: 'studio', strength: 0.4 });
    expect(updateOptions(studio, { excludeLips: true })).toMatchObject({ level: 'glow', filter: 'studio', strength: 0.4 });
    // a change that names the filter itself (a past job restored) is applied as it is
    expect(updateOptions(DEFAULT_OPTIONS, { level: 'glow', filter: 'none' })).toMatchObject({ level: 'glow', filter: 'none' });
    // other levels bring no filter
    expect(updateOptions(DEFAULT_OPTIONS, { level: 'makeup' })).toMatchObject({ filter: 'none' });
  });

  it("labels a glow result with the filter it was made with: 'Fair-skin filter 0.75' for the preset; nothing for other levels or without a filter", () => {
    const input = (over: Record<string, unknown>) => ({ ...buildUpscaleInput(updateOptions(DEFAULT_OPTIONS, { level: 'glow' }), { imageUrl: 'u', width: 1000, height: 1200 }, 7), ...over });
    expect(dewySkinLabel(input({}))).toEqual({ filter: 'ppoyong', strength: 0.75 });
    expect(dewySkinLabel(input({ filter_index: 0, filter_prompt: 'studio filter', filter_strength: 0.5 }))).toEqual({ filter: 'studio', strength: 0.5 });
    expect(dewySkinLabel(input({ filter_index: 0, filter_prompt: '', filter_strength: 0.01 }))).toBeNull();
    expect(dewySkinLabel(input({ lora_index: 2 }))).toBeNull();
    expect(dewySkinLabel(null)).toBeNull();
    expect(dewySkinLabel({ image: 'u' })).toBeNull();
  });
});
