import type { CreateUpscaleResponse, UpscaleInputRaw } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/runpod-upscale {input} (001 §7); the server computes and debits the cost. */
export function postUpscale(input: UpscaleInputRaw): Promise<CreateUpscaleResponse> {
  return apiRequest<CreateUpscaleResponse>('/api/runpod-upscale', { method: 'POST', body: { input } });
}
