import type { CreateUpscaleResponse, UpscaleInputRaw } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** POST /api/runpod-upscale {input} (001 §7); the server computes and debits the cost. */
export function postUpscale(input: UpscaleInputRaw): Promise<CreateUpscaleResponse> {
  return api.post('/api/runpod-upscale', { body: { input } });
}
