import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** One tile for a worker: the tile's 8-bit RGB (read region) and where its core lies inside it (input px). */
export interface SrTileTask {
  file: string;
  /** onnxruntime intra-op threads of this worker's session. */
  threads: number;
  /** onnxruntime's CPU memory arena (default on). */
  arena?: boolean;
  input: string;
  output: string;
  dtype: 'float32' | 'float16';
  /** The model's scale (4). */
  scale: number;
  /** 1: keep the model's ×scale output; 2: average 2×2 blocks (a ×4 model gives ×2). */
  reduce: 1 | 2;
  rgb: Uint8Array;
  tw: number;
  th: number;
  core: { x0: number; y0: number; w: number; h: number };
}

/**
 * A tile's result: the core's output pixels, interleaved RGB (w × h), the model's run time, and the
 * process's CPU time during the model run and during the whole task (exact only with one worker busy).
 */
export interface SrTileResult { rgb: Uint8Array; w: number; h: number; runMs: number; runCpuMs: number; allCpuMs: number }

interface Slot { worker: Worker; busy: boolean }

/**
 * A small pool of SR tile workers (worker_threads, sr-tile-worker.mjs), one per core by default (at most
 * 2: the target machine's cores). Workers start on first use, stay for later jobs, and are unref'd so an
 * idle pool never keeps a process alive. Tasks queue when all workers are busy.
 */
export class SrTilePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Array<{ task: SrTileTask; resolve: (r: SrTileResult) => void; reject: (e: Error) => void }> = [];

  constructor(readonly size: number) {}

  /** Workers started so far (0 … size). */
  get started(): number {
    return this.slots.length;
  }

  /** Runs one tile on the next free worker; rejects with `SR_FAILED: …` when the model fails. */
  run(task: SrTileTask): Promise<SrTileResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.pump();
    });
  }

  /** Stops the workers (tests, shutdown); a later `run` starts fresh ones. */
  async close(): Promise<void> {
    const ws = this.slots.splice(0).map((s) => s.worker.terminate());
    await Promise.all(ws);
  }

  private slot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length >= this.size) return undefined;
    const worker = new Worker(new URL('./sr-tile-worker.mjs', import.meta.url));
    worker.unref();
    const s: Slot = { worker, busy: false };
    worker.on('error', () => { this.slots.splice(this.slots.indexOf(s), 1); });
    this.slots.push(s);
    return s;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const s = this.slot();
      if (!s) return;
      const job = this.queue.shift()!;
      s.busy = true;
      s.worker.ref();
      const done = (): void => {
        s.busy = false;
        s.worker.unref();
        s.worker.off('message', onMessage);
        s.worker.off('error', onError);
        this.pump();
      };
      const onMessage = (m: ({ ok: true } & SrTileResult) | { ok: false; error: string }): void => {
        done();
        if (m.ok) job.resolve({ rgb: m.rgb, w: m.w, h: m.h, runMs: m.runMs, runCpuMs: m.runCpuMs, allCpuMs: m.allCpuMs });
        else job.reject(new Error(m.error.startsWith('SR_FAILED') ? m.error : `SR_FAILED: ${m.error}`));
      };
      const onError = (err: Error): void => { done(); job.reject(new Error(`SR_FAILED: ${err.message}`)); };
      s.worker.on('message', onMessage);
      s.worker.on('error', onError);
      s.worker.postMessage(job.task, [job.task.rgb.buffer as ArrayBuffer]);
    }
  }
}

let shared: SrTilePool | undefined;

/** Workers by default: one per core, at most 2 (the target machine's cores). */
export function defaultSrWorkers(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/** The process-wide SR tile pool of `size` workers (default {@link defaultSrWorkers}); resized pools replace it. */
export function srTilePool(size = defaultSrWorkers()): SrTilePool {
  if (!shared || shared.size !== size) {
    void shared?.close();
    shared = new SrTilePool(size);
  }
  return shared;
}
