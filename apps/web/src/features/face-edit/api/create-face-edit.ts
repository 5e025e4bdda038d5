import type { FaceEditInput, ToolJobCreated } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** POST /api/runpod-face-edit {input} (001 §7); the server computes and debits the cost, refunds on failure. */
export function postFaceEdit(input: FaceEditInput): Promise<ToolJobCreated> {
  return api.post('/api/runpod-face-edit', { body: { input } });
}
