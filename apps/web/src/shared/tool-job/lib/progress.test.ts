import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ko from '../../../locales/ko.json';
import { KNOWN_STAGES, progressPercent, stageKey } from './progress';

describe('job progress display', () => {
  it('maps engine stages to catalogue keys and unknown ones to working', () => {
    expect(stageKey('faces')).toBe('faces');
    expect(stageKey('super-resolution')).toBe('superResolution');
    expect(stageKey('resize')).toBe('resize');
    expect(stageKey('something-new')).toBe('working');
  });
  it('has words for every stage in both languages', () => {
    for (const key of KNOWN_STAGES) {
      expect(ko.toolJob.progress.stage[key], `ko ${key}`).toBeTruthy();
      expect(en.toolJob.progress.stage[key], `en ${key}`).toBeTruthy();
    }
  });
  it('turns the fraction into a whole percent', () => {
    expect(progressPercent({ stage: 'x', fraction: 0.424 })).toBe(42);
    expect(progressPercent({ stage: 'x', fraction: 1.5 })).toBe(100);
    expect(progressPercent({ stage: 'x', fraction: Number.NaN })).toBe(0);
  });
});
