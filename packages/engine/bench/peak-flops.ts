/**
 * The machine's peak fp32 FLOP/s, measured: an FMA loop (12 independent accumulator chains, enough to
 * hide the FMA latency on two pipes) on every core at once, compiled here with the system C compiler
 * for the widest vectors the CPU has (AVX-512, else AVX2+FMA). Each thread also reports FLOP per second
 * of its OWN CPU time, which stays true on a shared machine where wall time does not (other processes
 * take turns on the cores). Best of `reps` runs. Returns null when no C compiler is found.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Peak figures: wall GFLOP/s over all threads, and the best per-thread GFLOP per CPU-second. */
export interface PeakFlops { threads: number; isa: 'avx512' | 'avx2'; wallGflops: number; perCoreCpuGflops: number; reps: number }

const SOURCE = (w: 512 | 256): string => `
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define V __m${w}
#define SET1 _mm${w === 512 ? '512' : '256'}_set1_ps
#define FMA _mm${w === 512 ? '512' : '256'}_fmadd_ps
#define STORE _mm${w === 512 ? '512' : '256'}_storeu_ps
#define LANES ${w / 32}
static long iters;
static double now(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
typedef struct { float sink; double cpu; } R;
static void *work(void *arg) {
  R *r = (R *)arg; double c0 = now(CLOCK_THREAD_CPUTIME_ID);
  V a[12]; V b = SET1(0.999999f), c = SET1(1e-7f);
  for (int k = 0; k < 12; k++) a[k] = SET1((float)k);
  for (long i = 0; i < iters; i++) {
    #pragma GCC unroll 12
    for (int k = 0; k < 12; k++) a[k] = FMA(a[k], b, c);
  }
  float s = 0, t[LANES]; for (int k = 0; k < 12; k++) { STORE(t, a[k]); s += t[0]; }
  r->sink = s; r->cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0; return 0;
}
int main(int argc, char **argv) {
  int th = atoi(argv[1]); iters = atol(argv[2]);
  pthread_t t[256]; R r[256]; double t0 = now(CLOCK_MONOTONIC);
  for (int i = 0; i < th; i++) pthread_create(&t[i], 0, work, &r[i]);
  for (int i = 0; i < th; i++) pthread_join(t[i], 0);
  double dt = now(CLOCK_MONOTONIC) - t0, per = (double)iters * 12 * LANES * 2, best = 0;
  for (int i = 0; i < th; i++) if (per / r[i].cpu > best) best = per / r[i].cpu;
  printf("%f %f %f\\n", th * per / dt / 1e9, best / 1e9, r[0].sink);
  return 0;
}
`;

async function cpuFlags(): Promise<string> {
  try {
    return await readFile('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
}

/** Measures the peak; `threads` defaults to the number of cores. Null without a C compiler or on a non-x86 CPU. */
export async function measurePeakFlops(threads = os.availableParallelism(), reps = 7): Promise<PeakFlops | null> {
  const flags = await cpuFlags();
  const isa = / avx512f /.test(flags) ? 'avx512' : / avx2 /.test(flags) && / fma /.test(flags) ? 'avx2' : null;
  if (!isa) return null;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dewy-peak-'));
  try {
    const src = path.join(dir, 'fma.c'), bin = path.join(dir, 'fma');
    await writeFile(src, SOURCE(isa === 'avx512' ? 512 : 256));
    try {
      await run('cc', ['-O2', isa === 'avx512' ? '-mavx512f' : '-mavx2', '-mfma', '-pthread', src, '-o', bin]);
    } catch {
      return null;
    }
    let wall = 0, cpu = 0;
    for (let k = 0; k < reps; k++) {
      const { stdout } = await run(bin, [String(threads), '60000000']);
      const [w, c] = stdout.trim().split(/\s+/).map(Number) as [number, number];
      wall = Math.max(wall, w);
      cpu = Math.max(cpu, c);
    }
    return { threads, isa, wallGflops: Math.round(wall), perCoreCpuGflops: Math.round(cpu), reps };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
