import type { JobProgress } from './job-events';

/** Stages the page has words for (toolJob.progress.stage.*); anything else reads as 'working'. */
export const KNOWN_STAGES = ['queued', 'decode', 'faces', 'resize', 'superResolution', 'masks', 'retouch', 'composite', 'encode', 'store', 'done', 'working'] as const;
export type StageKey = (typeof KNOWN_STAGES)[number];

const ALIASES: Record<string, StageKey> = {
  'super-resolution': 'superResolution',
  super_resolution: 'superResolution',
  sr: 'superResolution',
  upscale: 'superResolution',
  landmarks: 'faces',
  mask: 'masks',
  filter: 'retouch',
  grading: 'retouch',
  save: 'store',
  upload: 'store',
  completed: 'done',
};

/** The catalogue key of an engine stage name (unknown stages are 'working', never shown raw). */
export function stageKey(stage: string): StageKey {
  const s = stage.trim();
  if ((KNOWN_STAGES as readonly string[]).includes(s)) return s as StageKey;
  return ALIASES[s.toLowerCase()] ?? 'working';
}

/** Whole percent 0..100 of a progress event (NaN and out-of-range values clamped). */
export function progressPercent(progress: JobProgress): number {
  const f = Number.isFinite(progress.fraction) ? progress.fraction : 0;
  return Math.round(Math.min(1, Math.max(0, f)) * 100);
}
