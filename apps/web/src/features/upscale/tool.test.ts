import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { INSUFFICIENT_CREDITS_KEY, JOB_FAILED_KEY } from '../../shared/tool-job';
import { installFakeApi } from '../../shared/tool-job/testing/fake-api';
import { historyImage } from '../../shared/tool-job/testing/history-image';
import { settle, setUpWorkspaceTests, workspaceHarness } from '../../shared/tool-job/testing/workspace-harness';
import { DEFAULT_OPTIONS, buildUpscaleInput } from './lib/options';
import { upscaleMessage, upscaleTool } from './tool';

setUpWorkspaceTests();

describe('upscaleTool: its catalogue (001 §8)', () => {
  it('maps a failed create call: the shared insufficient-credits message, the blocking dialog, nothing for an ended session', () => {
    expect(upscaleMessage(new ApiError(400, 'INSUFFICIENT_CREDITS', 'x', undefined, null))).toEqual({ key: INSUFFICIENT_CREDITS_KEY });
    expect(upscaleMessage(new ApiError(400, undefined, 'x', '크레딧이 부족합니다.', null))).toEqual({ key: INSUFFICIENT_CREDITS_KEY });
    expect(upscaleMessage(new ApiError(400, 'UPSCALE_BLOCKED', 'x', undefined, null))).toEqual({ dialog: 'blocked' });
    expect(upscaleMessage(new ApiError(401, 'SESSION_EXPIRED', 'x', undefined, null, true))).toBeNull();
    expect(upscaleMessage(new ApiError(500, 'INTERNAL', 'x', undefined, null))).toEqual({ key: 'upscale.error.generic' });
    expect(upscaleTool.cost({ width: 910, height: 1137, scale: 1 })).toBe(80);
  });
});

describe('upscaleTool in the workspace (001 §4/§7)', () => {
  it('reads its whole history, resumes a processing job on /api/image/status without a source, and tells a failed job on the stage only', async () => {
    const api = installFakeApi((call) => {
      if (call.path === '/api/image/history/7') {
        return { body: { images: [historyImage({ id: 5, status: 'processing', source: 'upscale', runpod_job_id: 'job-5' })], pagination: { hasMore: false, nextOffset: null } } };
      }
      if (call.path === '/api/image/status/job-5') return { body: { status: 'failed', imageUrl: null, originalImageUrl: null } };
      return { status: 404, body: { success: false, code: 'NOT_FOUND' } };
    });
    const h = workspaceHarness(upscaleTool);
    h.ws.setUser(7);
    await settle();
    expect(`${api.calls[0]?.path}?${api.calls[0]?.query}`).toBe('/api/image/history/7?source=upscale&limit=100&offset=0');
    expect(h.ws.getState().job).toMatchObject({ status: 'processing', jobId: 'job-5' });
    await vi.advanceTimersByTimeAsync(2000);
    const status = api.calls.find((c) => c.path === '/api/image/status/job-5');
    expect(status?.query.toString()).toBe('');
    expect(h.ws.getState().job).toMatchObject({ status: 'failed', message: { key: JOB_FAILED_KEY } });
    expect(h.toasts).toEqual([]);
    expect(h.ws.getState().message).toBeNull();
  });

  it('a create call that ended the session raises the session-expired modal and no message of its own', async () => {
    const api = installFakeApi((call) => {
      if (call.path === '/api/runpod-upscale') return { status: 401, body: { success: false, code: 'SESSION_EXPIRED', message: '로그인이 만료되었습니다.' } };
      return { body: { images: [], pagination: { hasMore: false, nextOffset: null } } };
    });
    const h = workspaceHarness(upscaleTool);
    h.ws.setUser(7);
    await settle();
    const created = await h.ws.start(async () => {
      const res = await upscaleTool.api.create(buildUpscaleInput(DEFAULT_OPTIONS, { imageUrl: '/f/a.jpg', width: 910, height: 1137 }, 1));
      return { jobId: res.jobId };
    });
    expect(created).toBe(false);
    expect(api.authInvalid).toEqual([{ message: '로그인이 만료되었습니다.', code: 'SESSION_EXPIRED' }]);
    expect(h.toasts).toEqual([]);
    expect(h.ws.getState().message).toBeNull();
  });
});
