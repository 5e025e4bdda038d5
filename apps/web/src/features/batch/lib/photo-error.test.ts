import { describe, expect, it } from 'vitest';
import { canRetry, photoReason, wasRefunded } from './photo-error';

describe('a batch photo’s reason', () => {
  it('has none unless failed or refused', () => {
    for (const status of ['pending', 'processing', 'completed'] as const) expect(photoReason(status, null, 'ko')).toBeNull();
  });

  it('words credits, a pause, contract codes and kernel reasons', () => {
    expect(photoReason('refused', 'INSUFFICIENT_CREDITS', 'ko')).toEqual({ key: 'toolJob.error.insufficientCredits' });
    expect(photoReason('failed', 'JOB_CANCELLED', 'en')).toEqual({ key: 'batch.photo.paused' });
    expect(photoReason('refused', 'UPSCALE_BLOCKED', 'en')).toEqual({ text: 'Width + height after scaling must stay under 4000 px. Lower the scale.' });
    expect(photoReason('failed', 'JOB_LOST', 'ko')).toEqual({ key: 'toolJob.error.jobFailed' });
    expect(photoReason('failed', null, 'ko')).toEqual({ key: 'toolJob.error.jobFailed' });
  });

  it('offers a retry where it can help and tells refunds', () => {
    expect(canRetry('failed', 'JOB_FAILED')).toBe(true);
    expect(canRetry('refused', 'INSUFFICIENT_CREDITS')).toBe(true);
    expect(canRetry('refused', 'UPSCALE_BLOCKED')).toBe(false);
    expect(canRetry('completed', null)).toBe(false);
    expect(wasRefunded('failed', 'JOB_FAILED')).toBe(true);
    expect(wasRefunded('failed', 'JOB_CANCELLED')).toBe(false);
    expect(wasRefunded('refused', 'INSUFFICIENT_CREDITS')).toBe(false);
  });
});
