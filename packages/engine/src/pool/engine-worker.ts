import type { MessagePort } from 'node:worker_threads';
import type { RetouchOptions, RetouchResult } from '../engine-types';
import { warmUpFaceModels } from '../face/face-analysis';
import { warmUpPersonMatte } from '../mask/person-matte';
import { retouchImage } from '../retouch-pipeline';

// Load the face models (then the selfie matte model) as soon as the worker starts so the first job does
// not pay ~1–2 s for it.
warmUpFaceModels().then(warmUpPersonMatte).catch(() => undefined);

/** Message a pool worker receives; the input arrives as a transferred Uint8Array. */
export interface EngineTask {
  input: Uint8Array;
  opts: RetouchOptions;
  modelsDir?: string;
  srMaxInputPixels?: number;
  /** Where stage progress is posted as `{stage, fraction}`; transferred with the task. */
  progressPort?: MessagePort;
}

/** Piscina task handler: runs one retouch job in this worker thread. Bytes go back as a Uint8Array. */
export async function runEngineTask(task: EngineTask): Promise<Omit<RetouchResult, 'bytes'> & { bytes: Uint8Array }> {
  const input = Buffer.from(task.input.buffer, task.input.byteOffset, task.input.byteLength);
  const port = task.progressPort;
  try {
    const result = await retouchImage(input, task.opts, {
      modelsDir: task.modelsDir,
      srMaxInputPixels: task.srMaxInputPixels,
      onProgress: port ? (stage, fraction) => port.postMessage({ stage, fraction }) : undefined,
    });
    return { ...result, bytes: new Uint8Array(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength) };
  } finally {
    port?.close();
  }
}
