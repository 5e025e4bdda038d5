import { IMAGE_GENERATION } from '@dewy/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { INSUFFICIENT_CREDITS_KEY } from '../../shared/tool-job';
import { installFakeApi } from '../../shared/tool-job/testing/fake-api';
import { historyImage } from '../../shared/tool-job/testing/history-image';
import { settle, setUpWorkspaceTests, workspaceHarness } from '../../shared/tool-job/testing/workspace-harness';
import { imageGenerationTool } from './tool';

setUpWorkspaceTests();

describe('imageGenerationTool in the workspace (002 §3/§4/§7/§8)', () => {
  it('reads the grouped history (10 first), keeps the local copy, and shows it when the server cannot be read', async () => {
    let fail = false;
    const api = installFakeApi((call) => {
      if (call.path === '/api/image/history/7') {
        if (fail) return { status: 500, body: { success: false, code: 'INTERNAL' } };
        const item = historyImage({ id: 3, status: 'completed', source: 'kling', runpod_job_id: 'k-3', image_url: '/r/3.png', all_image_urls: ['/r/3.png', '/r/4.png'], prompt: 'a cat' });
        return { body: { images: [item], pagination: { hasMore: false, nextOffset: null, groupHasMore: false, nextGroupOffset: null, grouped: true } } };
      }
      return { status: 404, body: { success: false, code: 'NOT_FOUND' } };
    });
    const a = workspaceHarness(imageGenerationTool);
    a.ws.setUser(7);
    await settle();
    expect(api.calls[0]?.query.toString()).toBe('source=kling&grouped=1&group_limit=10&group_offset=0');
    expect(a.ws.getState().history.items).toEqual([{ id: 'k-3', referenceUrl: null, urls: ['/r/3.png', '/r/4.png'], prompt: 'a cat', createdAt: '2026-11-27T00:00:00.000Z' }]);
    expect(a.ws.getState().job).toEqual({ status: 'idle' }); // 002: no result is opened by itself

    fail = true;
    const b = workspaceHarness(imageGenerationTool);
    b.ws.setUser(7);
    await settle();
    expect(b.ws.getState().history.items.map((i) => i.id)).toEqual(['k-3']);
    expect(b.toasts).toEqual([{ key: 'toolJob.error.historyLoad' }]);
  });

  it('a pushed failure is told by its reason code; a job that outlives 60 polls is a notice to check the history', async () => {
    const api = installFakeApi((call) => {
      if (call.path === '/api/image/status/k-9') return { body: { status: 'failed', imageUrl: null, originalImageUrl: null, error: 'GENERATION_SAFETY_BLOCKED' } };
      if (call.path === '/api/image/status/k-10') return { body: { status: 'processing', imageUrl: null, originalImageUrl: null } };
      return { body: { images: [], pagination: { hasMore: false, nextOffset: null } } };
    });
    const h = workspaceHarness(imageGenerationTool);
    h.ws.setUser(7);
    await settle();
    await h.ws.start(async () => ({ jobId: 'k-9', selectKey: 'k-9' }));
    h.es.send({ type: 'status', jobId: 'k-9', source: 'kling', status: 'failed' });
    await settle();
    expect(h.toasts).toEqual([{ key: 'imageGeneration.error.safety' }]);

    h.ws.reset();
    await h.ws.start(async () => ({ jobId: 'k-10' }));
    await vi.advanceTimersByTimeAsync(60 * 15_000 + 15_000);
    expect(api.calls.filter((c) => c.path === '/api/image/status/k-10')).toHaveLength(IMAGE_GENERATION.polling.maxAttempts);
    expect(h.toasts.at(-1)).toEqual({ key: 'imageGeneration.error.timeout', tone: 'info' });
  });

  it('words a failed generate call from its catalogue, too few credits with the shared message', () => {
    expect(imageGenerationTool.messages.callFailed(new ApiError(400, 'INSUFFICIENT_CREDITS', 'x', undefined, null), { online: true, step: 'run' })).toEqual({ key: INSUFFICIENT_CREDITS_KEY });
    expect(imageGenerationTool.messages.callFailed(new ApiError(400, 'NSFW_PROMPT_BLOCKED', 'x', undefined, null), { online: true, step: 'run' })).toEqual({ key: 'imageGeneration.error.nsfw' });
    expect(imageGenerationTool.cost(3)).toBe(45);
  });
});
