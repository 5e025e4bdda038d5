import type { FaceEditInput, ToolJobCreated } from '@dewy/contracts';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/runpod-face-edit {input} (001 §7); the server computes and debits the cost, refunds on failure. */
export function postFaceEdit(input: FaceEditInput): Promise<ToolJobCreated> {
  return apiRequest<ToolJobCreated>('/api/runpod-face-edit', { method: 'POST', body: { input } });
}
