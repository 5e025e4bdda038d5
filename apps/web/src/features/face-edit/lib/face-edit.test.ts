import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { FACE_EDIT_FAILED_KEY, FACE_EDIT_TIMEOUT_KEY, faceEditErrorKey } from './errors';
import { runBlocker } from './run-check';
import { INSUFFICIENT_CREDITS_KEY } from '../../../shared/tool-job/lib/tool-messages';
import { faceEditTool } from '../tool';
import { FACE_EDIT_JPEG_QUALITY, buildFaceEditInput, easyValue, faceEditResizeTarget, faceEditSeed } from './run-input';

/** The cost the page shows for an uploaded photo's size: the tool definition's rule (the contracts' one). */
const faceEditRunCost = (width: number, height: number) => faceEditTool.cost({ width, height });

const api = (status: number, code?: string, message = 'x') => new ApiError(status, code, message, undefined, null);

describe('face-edit upload size (001 §5)', () => {
  it('downscales to width + height = 3000 unless within 2 %, as JPEG 0.92', () => {
    expect(FACE_EDIT_JPEG_QUALITY).toBe(0.92);
    expect(faceEditResizeTarget(1434, 2333)).toEqual({ width: 1142, height: 1858 });
    expect(faceEditResizeTarget(1530, 1530)).toBeNull(); // 3060: within 2 %
    expect(faceEditResizeTarget(1531, 1530)).toEqual({ width: 1500, height: 1500 });
    expect(faceEditResizeTarget(910, 1137)).toBeNull(); // smaller photos stay as they are
  });
});

describe('face-edit run input and cost (001 §3/§9)', () => {
  it('costs 85 up to a sum of 3000 at factor 1, and more above', () => {
    expect(faceEditRunCost(910, 1137)).toBe(85);
    expect(faceEditRunCost(1142, 1858)).toBe(85);
    expect(faceEditRunCost(1530, 1530)).toBe(85 + 10 * 0); // 3060: 60 over, no full 200
  });
  it('sends the image, the mask, a seed 1..1,000,000, factor 1 and the strength to 3 decimals', () => {
    expect(buildFaceEditInput('img', 'mask', 0.30000000000000004, 42)).toEqual({ image: 'img', mask: 'mask', seed: 42, resize_factor: 1, easy_value: 0.3 });
    expect(easyValue(1.2)).toBe(1);
    expect(easyValue(-1)).toBe(0);
    expect(faceEditSeed(0)).toBe(1);
    expect(faceEditSeed(0.9999999)).toBe(1_000_000);
  });
});

describe('face-edit run checks (001 §5)', () => {
  const ok = { hasImage: true, online: true, mask: { uploaded: true, painted: 500 }, balance: 300, cost: 85 };
  it('asks for a photo, the connection, a saved mask, paint, then credits, in that order', () => {
    expect(runBlocker(ok)).toBeNull();
    expect(runBlocker({ ...ok, hasImage: false, online: false, mask: null })).toBe('faceEdit.error.noImage');
    expect(runBlocker({ ...ok, online: false })).toBe('faceEdit.error.offline');
    expect(runBlocker({ ...ok, mask: null })).toBe('faceEdit.error.maskRequired');
    expect(runBlocker({ ...ok, mask: { uploaded: false, painted: 500 } })).toBe('faceEdit.error.maskRequired');
    expect(runBlocker({ ...ok, mask: { uploaded: false, painted: 0 } })).toBe('faceEdit.error.maskEmpty');
    expect(runBlocker({ ...ok, balance: 84 })).toBe(INSUFFICIENT_CREDITS_KEY);
  });
});

describe('face-edit error messages (001 §8)', () => {
  it('maps server codes, the network and the FAILED/TIMEOUT texts', () => {
    expect(faceEditErrorKey(api(401, 'SESSION_EXPIRED'), true)).toBeNull();
    expect(faceEditErrorKey(api(400, 'INSUFFICIENT_CREDITS'), true)).toBe(INSUFFICIENT_CREDITS_KEY);
    expect(faceEditErrorKey(api(400, 'MASK_REQUIRED'), true)).toBe('faceEdit.error.maskRequired');
    expect(faceEditErrorKey(api(400, 'MASK_EMPTY'), true)).toBe('faceEdit.error.maskEmpty');
    expect(faceEditErrorKey(api(400, 'NSFW_CONTENT_DETECTED'), true)).toBe('toolJob.error.nsfw');
    expect(faceEditErrorKey(api(503), true)).toBe('toolJob.error.maintenance');
    expect(faceEditErrorKey(api(0, 'NETWORK', 'Failed to fetch'), false)).toBe('faceEdit.error.offline');
    expect(faceEditErrorKey(new Error('FACE_EDIT_FAILED'), true)).toBe(FACE_EDIT_FAILED_KEY);
    expect(faceEditErrorKey(new Error('TIMEOUT'), true)).toBe(FACE_EDIT_TIMEOUT_KEY);
    expect(faceEditErrorKey(api(0, 'S3_PUT_FAILED', 'PUT 500'), true)).toBe('faceEdit.error.processingFailed');
    expect(faceEditErrorKey(api(400, 'VALIDATION_FAILED'), true)).toBe('faceEdit.error.processingFailed');
    expect(faceEditErrorKey(api(500, 'INTERNAL', 'boom'), true)).toBe('faceEdit.error.generic');
    expect(faceEditErrorKey(new Error('boom'), false)).toBe('faceEdit.error.offline');
  });
});
