/**
 * One bench case in its own process (so peak RSS is per case): argv[2] = JSON
 * { file, crop?: {size}, scale, lora, modelsDir, baseline, excludeHair? }. Prints one JSON line.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { retouchImage } from '../src/index';
import { decodeImage, resizeRgb } from '../src/io/image-io';
import { outputSize, warmUpSuperResolution } from '../src/sr/super-resolution';
import { createUpscalerJs } from './upscalerjs-baseline';

interface CaseSpec { file: string; crop?: { size: number }; scale: number; lora: number; modelsDir: string; baseline: boolean; excludeHair?: boolean; warmRuns?: number }

const spec = JSON.parse(process.argv[2] ?? '{}') as CaseSpec;
let input = await readFile(spec.file);
if (spec.crop) {
  // square crop centred on the upper third (where the face is in these portraits), resized to size²
  const m = await sharp(input).rotate().metadata();
  const w = m.autoOrient?.width ?? m.width ?? 0, h = m.autoOrient?.height ?? m.height ?? 0;
  const side = Math.min(w, h);
  const top = Math.max(0, Math.min(h - side, Math.round(h * 0.3 - side / 2)));
  input = await sharp(input).rotate().extract({ left: Math.round((w - side) / 2), top, width: side, height: side })
    .resize(spec.crop.size, spec.crop.size, { kernel: 'lanczos3' }).jpeg({ quality: 95 }).toBuffer();
}
const opts = {
  loraIndex: spec.lora, scaleFactor: spec.scale, filterIndex: 0 as const, filterStrength: 0.01, filterPrompt: '',
  exclude: { upperLip: false, lowerLip: false, leftEyebrow: false, rightEyebrow: false, nose: false, hair: spec.excludeHair ?? false },
  outputFormat: 'jpg' as const, outputQuality: 100, seed: 1,
};
// warm-up as the server's engine worker does at start (ENGINE_WARMUP): a small crop loads the face
// models (and the selfie matte model when hair is excluded), then both SR tile workers run a full tile
const warm = await sharp(input).resize(160, 160, { fit: 'cover' }).jpeg().toBuffer();
await retouchImage(warm, { ...opts, scaleFactor: spec.scale > 1 ? 2 : 1 }, { modelsDir: spec.modelsDir });
if (spec.scale > 1) await warmUpSuperResolution(spec.modelsDir);

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const res = await retouchImage(input, opts, { modelsDir: spec.modelsDir });
const wallMs = Math.round(performance.now() - t0);
// CPU time of all threads (onnxruntime's pool included): on a shared machine wall time swings with
// other load, CPU time much less; cpuMs / cores is the wall time an otherwise idle machine would need
const cpu = process.cpuUsage(cpu0);
const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
// the same job again in the same process (a worker that has run jobs before): wall time of each
const warmWallMs: number[] = [];
for (let i = 0; i < (spec.warmRuns ?? 0); i++) {
  const t = performance.now();
  await retouchImage(input, opts, { modelsDir: spec.modelsDir });
  warmWallMs.push(Math.round(performance.now() - t));
}

let baseline: { srMs: number; cpuMs: number; peakRssMb: number } | null = null;
if (spec.baseline && spec.scale > 1) {
  const img = await decodeImage(input);
  const upscale = await createUpscalerJs();
  await upscale(await decodeImage(warm)); // warm-up: load the tfjs model
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const x2 = await upscale(img);
  const target = outputSize(img.width, img.height, spec.scale);
  await resizeRgb(x2, target.width, target.height);
  const c = process.cpuUsage(c1);
  baseline = { srMs: Math.round(performance.now() - t1), cpuMs: Math.round((c.user + c.system) / 1000), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
}
const meta = await sharp(input).metadata();
console.log(JSON.stringify({ input: { width: meta.width, height: meta.height }, output: { width: res.width, height: res.height }, faces: res.meta.faces, srModel: res.meta.srModel, fallback: res.meta.fallback, hairMask: res.meta.hairMask, timingsMs: res.meta.timingsMs, wallMs, warmWallMs, cpuMs, peakRssMb, baseline, sr: res.meta.sr ?? null, faceFits: res.meta.faceFits ?? [] }));
