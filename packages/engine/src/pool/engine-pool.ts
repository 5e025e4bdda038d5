import os from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { RetouchOptions, RetouchResult } from '../engine-types';
import type { FaceEditOptions, FaceEditResult } from '../engine-types';
import type { NsfwScores } from '../nsfw/nsfw-classifier';
import type { EngineTask, EngineWorkerData, FaceEditTaskResult, RetouchTaskResult } from './engine-worker';

type Progress = (stage: string, fraction: number) => void;

export interface EnginePool {
  /**
   * Runs one retouch job on a worker thread; rejects with the worker's Error (same messages as
   * retouchImage), or AbortError. `onProgress(stage, 0..1 of that stage)` receives the pipeline's stages.
   */
  run(input: Buffer, opts: RetouchOptions, signal?: AbortSignal, onProgress?: Progress): Promise<RetouchResult>;
  /**
   * Runs one face edit ({@link faceEditImage}) on the same workers; rejects with its Error (EMPTY_MASK,
   * NO_IMAGE_DECODE, NO_MASK_DECODE, INVALID_OPTIONS, INVALID_MASK) or AbortError. Stages: decode,
   * inpaint, blend, encode, done.
   */
  faceEdit(input: Buffer, mask: Buffer, opts: FaceEditOptions, signal?: AbortSignal, onProgress?: Progress): Promise<FaceEditResult>;
  /** Screens an image for moderation ({@link classifyNsfw}) on the same workers: NSFWJS class probabilities. */
  classifyNsfw(input: Buffer, signal?: AbortSignal): Promise<NsfwScores>;
  /** Stops all workers; pending jobs reject. */
  destroy(): Promise<void>;
}

/** A private copy of the caller's bytes, so transferring it does not detach the caller's buffer. */
function copyOf(b: Buffer): Uint8Array {
  const c = new Uint8Array(b.byteLength);
  c.set(b);
  return c;
}

/**
 * Worker-thread pool (piscina) so CPU-heavy retouch and face edits never block the API event loop
 * (GUIDE §4). Both kinds of task run on the same workers (`EngineTask.kind`).
 * `threads` defaults to 1: each retouch job already uses both cores in onnxruntime (intraOpNumThreads 2),
 * so more workers on a 2-core machine only add memory (each holds its own models, ~300–500 MB peak per
 * job). One worker starts at once and loads the face models; extra workers exit after 5 idle minutes.
 */
export function createEnginePool(config: { modelsDir?: string; threads?: number; warmUpSr?: boolean }): EnginePool {
  const threads = Math.max(1, Math.min(config.threads ?? 1, os.availableParallelism()));
  const piscina = new Piscina({
    filename: new URL('./engine-worker.mjs', import.meta.url).href,
    minThreads: 1, // one warm worker from the start: model loading stays off the first job's clock
    maxThreads: threads,
    idleTimeout: 5 * 60_000,
    concurrentTasksPerWorker: 1,
    // read by each worker at start: what to load ahead of the first job (engine-worker.ts)
    workerData: { modelsDir: config.modelsDir, warmUpSr: config.warmUpSr ?? false } satisfies EngineWorkerData,
  });
  // A worker that dies outside a task (e.g. fails to load) is reported here; without a listener Node
  // would crash the whole server on the 'error' event. Running tasks still reject on their own.
  piscina.on('error', (err: unknown) => {
    console.error('[engine-pool] worker error:', err instanceof Error ? err.message : err);
  });

  /** Runs a task; progress crosses the thread boundary on a port of its own, closed when the job ends. */
  async function submit<T>(task: EngineTask, transfer: ArrayBufferLike[], signal?: AbortSignal, onProgress?: Progress): Promise<T> {
    const channel = onProgress ? new MessageChannel() : undefined;
    channel?.port1.on('message', (m: { stage: string; fraction: number }) => onProgress!(m.stage, m.fraction));
    channel?.port1.unref();
    const withPort: EngineTask = { ...task, progressPort: channel?.port2 as MessagePort | undefined };
    try {
      const transferList = channel ? [...transfer, channel.port2] : transfer;
      return (await piscina.run(withPort, { signal, transferList: transferList as never })) as T;
    } finally {
      channel?.port1.close();
    }
  }

  return {
    async run(input, opts, signal, onProgress) {
      const copy = copyOf(input);
      const task: EngineTask = { kind: 'retouch', input: copy, opts, modelsDir: config.modelsDir };
      const out = await submit<RetouchTaskResult>(task, [copy.buffer], signal, onProgress);
      return { ...out, bytes: Buffer.from(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength) };
    },
    async faceEdit(input, mask, opts, signal, onProgress) {
      const image = copyOf(input), maskBytes = copyOf(mask);
      // only the plain options cross the thread boundary (a signal or callback cannot be cloned)
      const plain: FaceEditOptions = { seed: opts.seed, strength: opts.strength, resizeFactor: opts.resizeFactor, maxSum: opts.maxSum, outputFormat: opts.outputFormat };
      const task: EngineTask = { kind: 'face-edit', input: image, mask: maskBytes, opts: plain };
      const out = await submit<FaceEditTaskResult>(task, [image.buffer, maskBytes.buffer], signal, onProgress);
      return { ...out, buffer: Buffer.from(out.buffer.buffer, out.buffer.byteOffset, out.buffer.byteLength) };
    },
    async classifyNsfw(input, signal) {
      const copy = copyOf(input);
      return submit<NsfwScores>({ kind: 'nsfw', input: copy }, [copy.buffer], signal);
    },
    async destroy() {
      await piscina.destroy();
    },
  };
}
