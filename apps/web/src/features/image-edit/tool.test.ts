import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { INSUFFICIENT_CREDITS_KEY } from '../../shared/tool-job';
import { installFakeApi } from '../../shared/tool-job/testing/fake-api';
import { settle, setUpWorkspaceTests, workspaceHarness } from '../../shared/tool-job/testing/workspace-harness';
import { imageEditCallMessage, imageEditTool } from './tool';

setUpWorkspaceTests();

const JOB = '0b6f1c9e-4d2a-4c1e-9f3b-5a7d2e8c1f00';
const TASK = `seedream-${JOB}`;

describe('imageEditTool in the workspace (002 §4/§7/§8)', () => {
  it('reads its history 9 at a time, follows a job by push (the stream names the bare job id), and shows a vendor failure in the 002 §8 dialog', async () => {
    const api = installFakeApi((call) => {
      if (call.path === '/api/seedream/history') return { body: { success: true, items: [], pagination: { nextOffset: null, hasMore: false } } };
      if (call.path === `/api/seedream/status/${TASK}`) {
        return { body: { success: true, status: 'failed', urls: [], partial: false, error: { code: 'OutputImageSensitiveContentDetected', message: 'filtered' } } };
      }
      return { status: 404, body: { success: false, code: 'NOT_FOUND' } };
    });
    const h = workspaceHarness(imageEditTool);
    h.ws.setUser(7);
    await settle();
    expect(api.calls[0]?.query.toString()).toBe('grouped=1&status=completed&limit=9&offset=0');
    await h.ws.start(async () => ({ jobId: TASK }));
    expect(h.pending()).toMatchObject({ jobId: TASK });
    h.es.send({ type: 'status', jobId: JOB, source: 'seedream', status: 'failed' });
    await settle();
    // read once for the vendor's code, long before the first 3 s poll
    expect(api.calls.filter((c) => c.path.startsWith('/api/seedream/status/'))).toHaveLength(1);
    const dialog = { titleKey: 'imageEdit.dialog.sensitiveTitle', key: 'imageEdit.dialog.sensitive', values: undefined };
    expect(h.ws.getState().job).toMatchObject({ status: 'failed', jobId: TASK, message: dialog });
    expect(h.ws.getState().message).toEqual(dialog);
    expect(h.pending()).toBeNull();
  });

  it('words upload failures by the 002 §8 upload codes and too few credits with the shared message', () => {
    expect(imageEditCallMessage(new ApiError(0, 'NETWORK', 'Failed to fetch', undefined, null), 'upload')).toMatchObject({ key: 'imageEdit.error.upload', values: { code: 'PRESIGN_FAILED' } });
    expect(imageEditCallMessage(new ApiError(400, 'INSUFFICIENT_CREDITS', 'x', undefined, null), 'run')).toMatchObject({ key: INSUFFICIENT_CREDITS_KEY, titleKey: 'imageEdit.dialog.errorTitle' });
    expect(imageEditCallMessage(new ApiError(400, undefined, 'x', 'Not enough credits.', null), 'run')).toMatchObject({ key: INSUFFICIENT_CREDITS_KEY });
    expect(imageEditTool.cost({ numImages: 2, autoPrompt: true })).toBe(35);
  });
});
