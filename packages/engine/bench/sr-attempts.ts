/**
 * `npm run bench:sr`: the super-resolution variants tried for issue 12 on one 1024² crop of obama3 ×2 at
 * full detail (4xLSDIRCompactC3), each after a warm-up on a 160² crop, best of `--reps` (default 2) —
 * other processes share these cores, so best-of is the honest figure; CPU time is printed too (it moves
 * far less with load). `first` is the first run at the crop's tile shapes: without the memory arena
 * onnxruntime's first run of every new shape is much slower, and a customer's photo is nearly always a
 * new shape. Prints executed TFLOP, wall, CPU, GFLOP/s and % of the measured peak, and peak RSS growth.
 * Env: MODELS_DIR, FIXTURES_DIR (defaults ../shared/...).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decodeImage, resizeRgb } from '../src/io/image-io';
import type { SrRunOptions } from '../src/sr/onnx-upscaler';
import { resizeToOutput } from '../src/sr/super-resolution';
import { measurePeakFlops } from './peak-flops';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = path.resolve(process.env.FIXTURES_DIR ?? path.join(repoRoot, '../shared/fixtures/portraits'));
const modelsDir = path.resolve(process.env.MODELS_DIR ?? path.join(repoRoot, '../shared/models'));
const { values } = parseArgs({ options: { reps: { type: 'string', default: '2' } } });
const reps = Number(values.reps);

const ATTEMPTS: Array<[string, SrRunOptions]> = [
  ['1 worker × 2 intra-op threads, tiles 256 (the old layout)', { workers: 1, threadsPerWorker: 2, tile: 256, reduce: 1, arena: true }],
  ['1 worker × 2 threads, tiles 512', { workers: 1, threadsPerWorker: 2, tile: 512, reduce: 1, arena: true }],
  ['2 workers × 1 thread, tiles 256', { workers: 2, tile: 256, reduce: 1, arena: true }],
  ['2 workers × 1 thread, tiles 512, ×4 then lanczos', { workers: 2, tile: 512, reduce: 1, arena: true }],
  ['2 workers × 1 thread, tiles 512, ×2 in the workers', { workers: 2, tile: 512, reduce: 2, arena: true }],
  ['… and no memory arena (the default until 2026-11-24)', { workers: 2, tile: 512, reduce: 2, arena: false }],
  ['… tiles 384', { workers: 2, tile: 384, reduce: 2, arena: false }],
  ['… overlap 8 instead of 16', { workers: 2, tile: 512, overlap: 8, reduce: 2, arena: false }],
  ['2 workers × 1 thread, tiles 448, arena (the default)', { workers: 2, tile: 448, reduce: 2, arena: true }],
];

const src = await readFile(path.join(fixtures, 'obama3_1434x2333.jpg'));
const img = await decodeImage(await sharp(src).extract({ left: 205, top: 100, width: 1024, height: 1024 }).png().toBuffer());
process.stdout.write('measuring the peak …\n');
const peak = await measurePeakFlops();
const peakG = peak ? peak.wallGflops : 600;
console.log(peak ? `peak ${peak.wallGflops} GFLOP/s wall (${peak.threads} threads, ${peak.isa}); ${peak.perCoreCpuGflops} GFLOP per CPU-second per core` : 'peak not measured (no C compiler); using 600');
for (const [name, o] of ATTEMPTS) {
  await resizeToOutput(await resizeRgb(img, 160, 160), 2, 'lsdir-compact-c3', modelsDir, undefined, o);
  let wall = Infinity, cpu = Infinity, stats, first = 0;
  for (let k = 0; k < reps; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await resizeToOutput(img, 2, 'lsdir-compact-c3', modelsDir, undefined, o);
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (k === 0) first = ms; // this configuration's first run of the 1024² tile shapes
    wall = Math.min(wall, ms);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
    stats = out.stats!;
  }
  const tflop = (stats!.flopPerPixel * stats!.modelPixels) / 1e12;
  const g = (tflop * 1e6) / wall; // TFLOP per ms → GFLOP/s
  console.log(`${name.padEnd(52)} ${stats!.tiles} tiles ${tflop.toFixed(3)} TFLOP  first ${Math.round(first)} ms  best ${Math.round(wall)} ms  cpu ${Math.round(cpu)} ms  ${g.toFixed(0)} GFLOP/s = ${((100 * g) / peakG).toFixed(0)} % of peak; ${((tflop * 1e6) / cpu).toFixed(0)} GFLOP per CPU-second; peak RSS so far ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
}
