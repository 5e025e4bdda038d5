import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { installFakeApi } from '../../shared/tool-job/testing/fake-api';
import { historyImage } from '../../shared/tool-job/testing/history-image';
import { settle, setUpWorkspaceTests, workspaceHarness } from '../../shared/tool-job/testing/workspace-harness';
import { faceEditTool } from './tool';

setUpWorkspaceTests();

const page = (images: ReturnType<typeof historyImage>[]) => ({ body: { images, pagination: { hasMore: false, nextOffset: null } } });

describe('faceEditTool in the workspace (001 §4/§7/§8)', () => {
  it('pages its history 10 then 15 on reload, polls status with ?source=face_edit, and a failed job opens its dialog', async () => {
    const api = installFakeApi((call) => {
      if (call.path === '/api/image/history/7') return page([historyImage({ id: 1, status: 'completed', source: 'face_edit', runpod_job_id: 'fe-1', image_url: '/r/1.jpg' })]);
      if (call.path === '/api/runpod-face-edit') return { body: { success: true, jobId: 'fe-2', imageId: 2, status: 'processing', cost: 85, credits: 215 } };
      if (call.path === '/api/image/status/fe-2') return { body: { status: 'failed', imageUrl: null, originalImageUrl: null, error: 'FACE_EDIT_FAILED' } };
      return { status: 404, body: { success: false, code: 'NOT_FOUND' } };
    });
    const h = workspaceHarness(faceEditTool);
    h.ws.setUser(7);
    await settle();
    expect(api.calls[0]?.query.toString()).toBe('source=face_edit&limit=10&offset=0');
    expect(h.ws.getState().job).toMatchObject({ status: 'completed', resultUrl: '/r/1.jpg', via: 'history' });

    await h.ws.start(async () => {
      const res = await faceEditTool.api.create({ image: '/u/a.jpg', mask: '/u/m.png', seed: 1, resize_factor: 1, easy_value: 0.5 });
      return { jobId: res.jobId, selectKey: res.imageId };
    });
    await settle();
    expect(api.calls.filter((c) => c.path === '/api/image/history/7').at(-1)?.query.toString()).toBe('source=face_edit&limit=15&offset=0');
    await vi.advanceTimersByTimeAsync(1000); // 001 §4: the first status read after 1 s
    expect(api.calls.find((c) => c.path === '/api/image/status/fe-2')?.query.toString()).toBe('source=face_edit');
    expect(h.ws.getState().job).toMatchObject({ status: 'failed', message: { key: 'faceEdit.error.aiFailed' } });
    expect(h.ws.getState().message).toEqual({ key: 'faceEdit.error.aiFailed' });
    expect(h.toasts).toEqual([]);
  });

  it('a failed call offline says the network is down; a history failure after the session ended says nothing (one behaviour, issue 17)', async () => {
    const api = installFakeApi(() => ({ status: 401, body: { success: false, code: 'SESSION_EXPIRED' } }));
    const h = workspaceHarness(faceEditTool, { online: false });
    h.ws.setUser(7);
    await settle();
    expect(api.authInvalid).toHaveLength(1);
    expect(h.toasts).toEqual([]);
    h.ws.reportError(new ApiError(0, 'NETWORK', 'Failed to fetch', undefined, null), 'upload');
    expect(h.ws.getState().message).toEqual({ key: 'faceEdit.error.offline' });
  });

  it('shows the cost of the contracts’ rule at factor 1 (001 §9)', () => {
    expect(faceEditTool.cost({ width: 1142, height: 1858 })).toBe(85);
    expect(faceEditTool.cost({ width: 2000, height: 2000 })).toBe(85); // brought to 3000 first
  });
});
