/**
 * One face-edit bench case in its own process (so peak RSS is per case): argv[2] = JSON
 * { file, crop: { left, top, size }, side, maskFraction, cx, cy, seed, preview? }. The portrait is cropped
 * to a square and resized to side × side (lanczos3, JPEG q95), the mask is a disc of maskFraction of the
 * area centred at (cx, cy). After a warm-up edit (JIT, as in a long-lived pool worker) it times
 * faceEditImage and prints one JSON line.
 */
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { faceEditImage } from '../src/index';

interface Spec { file: string; crop: { left: number; top: number; size: number }; side: number; maskFraction: number; cx: number; cy: number; seed: number; preview?: string }

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const input = await sharp(await readFile(spec.file)).rotate()
  .extract({ left: spec.crop.left, top: spec.crop.top, width: spec.crop.size, height: spec.crop.size })
  .resize(spec.side, spec.side, { kernel: 'lanczos3' }).jpeg({ quality: 95 }).toBuffer();
const radius = Math.sqrt((spec.maskFraction * spec.side * spec.side) / Math.PI);
const svg = (w: number, cx: number, cy: number, r: number): Buffer => Buffer.from(`<svg width="${w}" height="${w}"><rect width="${w}" height="${w}" fill="black"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="white"/></svg>`);
const mask = await sharp(svg(spec.side, spec.cx, spec.cy, radius)).png().toBuffer();

// warm-up on a small copy
const small = await sharp(input).resize(300, 300).jpeg().toBuffer();
await faceEditImage(small, await sharp(svg(300, 150, 150, 20)).png().toBuffer(), { seed: 1, strength: 1, resizeFactor: 1 });

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const res = await faceEditImage(input, mask, { seed: spec.seed, strength: 1, resizeFactor: 1 });
const wallMs = Math.round(performance.now() - t0);
const cpu = process.cpuUsage(cpu0);
const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
let preview: string | undefined;
if (spec.preview) {
  await mkdir(path.dirname(spec.preview), { recursive: true });
  const half = Math.round(Math.min(spec.side / 2, radius * 1.6));
  const left = Math.max(0, Math.min(spec.side - 2 * half, Math.round(spec.cx - half))), top = Math.max(0, Math.min(spec.side - 2 * half, Math.round(spec.cy - half)));
  const crop = { left, top, width: 2 * half, height: 2 * half };
  const tile = (b: Buffer): Promise<Buffer> => sharp(b).extract(crop).resize(400, 400).png().toBuffer();
  await sharp({ create: { width: 808, height: 400, channels: 3, background: '#fff' } })
    .composite([{ input: await tile(input), left: 0, top: 0 }, { input: await tile(res.buffer), left: 408, top: 0 }]).png().toFile(spec.preview);
  preview = spec.preview;
}
console.log(JSON.stringify({ side: spec.side, maskFraction: spec.maskFraction, radius: Math.round(radius), wallMs, cpuMs, peakRssMb, meta: res.meta, preview }));
