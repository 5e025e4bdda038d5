import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { RetouchOptions, RetouchResult } from '../engine-types';
import type { EngineTask } from './engine-worker';

export interface EnginePool {
  /**
   * Runs one job on a worker thread; rejects with the worker's Error (same messages as retouchImage),
   * or AbortError. `onProgress(stage, 0..1 of that stage)` receives the pipeline's stages as they run.
   */
  run(input: Buffer, opts: RetouchOptions, signal?: AbortSignal, onProgress?: (stage: string, fraction: number) => void): Promise<RetouchResult>;
  /** Stops all workers; pending jobs reject. */
  destroy(): Promise<void>;
}

/**
 * Worker-thread pool (piscina) so CPU-heavy retouch never blocks the API event loop (GUIDE §4).
 * `threads` defaults to 1: each job already uses both cores in onnxruntime (intraOpNumThreads 2), so more
 * workers on a 2-core machine only add memory (each holds its own models, ~300–500 MB peak per job).
 * One worker starts at once and loads the face models; extra workers exit after 5 idle minutes.
 */
export function createEnginePool(config: { modelsDir?: string; threads?: number; srMaxInputPixels?: number }): EnginePool {
  const threads = Math.max(1, Math.min(config.threads ?? 1, os.availableParallelism()));
  const piscina = new Piscina({
    filename: new URL('./engine-worker.mjs', import.meta.url).href,
    minThreads: 1, // one warm worker from the start: model loading stays off the first job's clock
    maxThreads: threads,
    idleTimeout: 5 * 60_000,
    concurrentTasksPerWorker: 1,
  });
  // A worker that dies outside a task (e.g. fails to load) is reported here; without a listener Node
  // would crash the whole server on the 'error' event. Running tasks still reject on their own.
  piscina.on('error', (err: unknown) => {
    console.error('[engine-pool] worker error:', err instanceof Error ? err.message : err);
  });
  return {
    async run(input, opts, signal, onProgress) {
      const copy = new Uint8Array(input.byteLength);
      copy.set(input);
      // Progress crosses the thread boundary on a port of its own, closed when the job ends.
      const channel = onProgress ? new MessageChannel() : undefined;
      channel?.port1.on('message', (m: { stage: string; fraction: number }) => onProgress!(m.stage, m.fraction));
      channel?.port1.unref();
      const task: EngineTask = { input: copy, opts, modelsDir: config.modelsDir, srMaxInputPixels: config.srMaxInputPixels, progressPort: channel?.port2 };
      try {
        const transferList = channel ? [copy.buffer, channel.port2] : [copy.buffer];
        const out = (await piscina.run(task, { signal, transferList: transferList as never })) as Omit<RetouchResult, 'bytes'> & { bytes: Uint8Array };
        return { ...out, bytes: Buffer.from(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength) };
      } finally {
        channel?.port1.close();
      }
    },
    async destroy() {
      await piscina.destroy();
    },
  };
}
