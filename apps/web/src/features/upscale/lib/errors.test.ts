import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { INSUFFICIENT_CREDITS_KEY } from '../../../shared/tool-job/lib/tool-messages';
import { upscaleFailure } from './errors';

const apiError = (status: number, code?: string, serverError?: string) => new ApiError(status, code, serverError ?? 'x', serverError, null);

describe('upscale error catalogue (001 §8)', () => {
  it('maps insufficient credits by code or by the Korean server text', () => {
    expect(upscaleFailure(apiError(400, 'INSUFFICIENT_CREDITS'))).toEqual({ kind: 'message', key: INSUFFICIENT_CREDITS_KEY });
    expect(upscaleFailure(apiError(400, undefined, '크레딧이 부족합니다.'))).toEqual({ kind: 'message', key: INSUFFICIENT_CREDITS_KEY });
  });
  it('maps NSFW, maintenance, blocking and the rest', () => {
    expect(upscaleFailure(apiError(400, undefined, 'NSFW_CONTENT_DETECTED'))).toEqual({ kind: 'message', key: 'toolJob.error.nsfw' });
    expect(upscaleFailure(apiError(503, 'MAINTENANCE'))).toEqual({ kind: 'message', key: 'toolJob.error.maintenance' });
    expect(upscaleFailure(apiError(400, 'UPSCALE_BLOCKED'))).toEqual({ kind: 'blocked' });
    expect(upscaleFailure(apiError(500, 'INTERNAL'))).toEqual({ kind: 'message', key: 'upscale.error.generic' });
    expect(upscaleFailure(new Error('boom'))).toEqual({ kind: 'message', key: 'upscale.error.generic' });
  });

  it('an ended session is the session-expired modal alone: no toast of its own (issue 17)', () => {
    expect(upscaleFailure(new ApiError(401, 'SESSION_EXPIRED', 'x', 'x', null, true))).toEqual({ kind: 'session' });
  });
});
