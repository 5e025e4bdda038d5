import { workerData, type MessagePort } from 'node:worker_threads';
import type { RetouchOptions, RetouchResult } from '../engine-types';
import { warmUpFaceModels } from '../face/face-analysis';
import type { FaceEditOptions, FaceEditResult } from '../engine-types';
import { faceEditImage } from '../inpaint/face-edit';
import { warmUpPersonMatte } from '../mask/person-matte';
import { retouchImage } from '../retouch-pipeline';
import { warmUpSuperResolution } from '../sr/super-resolution';
import { classifyNsfw, type NsfwScores } from '../nsfw/nsfw-classifier';

/** What the pool tells each worker at start (Piscina `workerData`). */
export interface EngineWorkerData {
  modelsDir?: string;
  /** Also ready super-resolution: both SR tile workers run one full-size tile (decision 019). */
  warmUpSr?: boolean;
}

// Load the face models (then the selfie matte model, then, when asked, the SR sessions) as soon as the
// worker starts so the first job does not pay for it (~1–2 s for the models, ~2.3 s for cold SR).
const startData = (workerData ?? {}) as EngineWorkerData;
warmUpFaceModels()
  .then(warmUpPersonMatte)
  .then(() => (startData.warmUpSr ? warmUpSuperResolution(startData.modelsDir) : false))
  .catch(() => undefined);

/** A retouch job (the pool's original task; `kind` may be omitted). */
export interface RetouchTask {
  kind?: 'retouch';
  input: Uint8Array;
  opts: RetouchOptions;
  modelsDir?: string;
  /** Where stage progress is posted as `{stage, fraction}`; transferred with the task. */
  progressPort?: MessagePort;
}

/** A face-edit job (spec 001 §3 face-edit run input): image and mask bytes arrive transferred. */
export interface FaceEditTask {
  kind: 'face-edit';
  input: Uint8Array;
  mask: Uint8Array;
  opts: FaceEditOptions;
  progressPort?: MessagePort;
}

/** An upload to screen for moderation (issue 13): NSFWJS class probabilities back. */
export interface NsfwTask {
  kind: 'nsfw';
  input: Uint8Array;
  progressPort?: MessagePort;
}

/** Message a pool worker receives. */
export type EngineTask = RetouchTask | FaceEditTask | NsfwTask;

type Transferable<T extends { buffer: Buffer }> = Omit<T, 'buffer'> & { buffer: Uint8Array };
export type RetouchTaskResult = Omit<RetouchResult, 'bytes'> & { bytes: Uint8Array };
export type FaceEditTaskResult = Transferable<FaceEditResult>;

const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
const asBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** Piscina task handler: runs one job of either kind in this worker thread. Bytes go back as a Uint8Array. */
export async function runEngineTask(task: EngineTask): Promise<RetouchTaskResult | FaceEditTaskResult | NsfwScores> {
  const port = task.progressPort;
  const onProgress = port ? (stage: string, fraction: number) => port.postMessage({ stage, fraction }) : undefined;
  try {
    if (task.kind === 'nsfw') return await classifyNsfw(asBuffer(task.input));
    if (task.kind === 'face-edit') {
      const result = await faceEditImage(asBuffer(task.input), asBuffer(task.mask), { ...task.opts, onProgress });
      return { ...result, buffer: asBytes(result.buffer) };
    }
    const result = await retouchImage(asBuffer(task.input), task.opts, { modelsDir: task.modelsDir, onProgress });
    return { ...result, bytes: asBytes(result.bytes) };
  } finally {
    port?.close();
  }
}
