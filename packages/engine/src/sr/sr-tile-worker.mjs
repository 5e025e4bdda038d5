// One super-resolution tile worker (see sr-tile-pool.ts). Plain JavaScript so worker threads need no
// TypeScript loader. Each worker holds its own onnxruntime session with ONE intra-op thread: two such
// workers running two tiles at once used the two cores at ~195 GFLOP per CPU-second, one session with
// two intra-op threads at ~150 (measured, decision 005 addendum). The worker also does the per-pixel
// work around the model (8-bit → planar float or half, and back with clamping and 2×2 reduction), so
// that work runs on both cores too.
import { parentPort } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

const sessions = new Map();

function session(file, threads, arena) {
  const key = `${file}|${threads}|${arena}`;
  let s = sessions.get(key);
  if (!s) {
    s = ort.InferenceSession.create(file, {
      enableCpuMemArena: arena,
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    s.catch(() => sessions.delete(key));
    sessions.set(key, s);
  }
  return s;
}

// IEEE-754 binary16 conversions (same as half-float.ts; duplicated so this file stays plain JS)
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function toHalf(value) {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1), mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
}
const HALF = new Float32Array(65536);
function toFloat(u16) {
  const f = new Float32Array(u16.length);
  for (let i = 0; i < u16.length; i++) f[i] = HALF[u16[i]];
  return f;
}
for (let h = 0; h < 65536; h++) {
  const sign = h & 0x8000 ? -1 : 1, exp = (h >>> 10) & 0x1f, mant = h & 0x3ff;
  HALF[h] = exp === 0 ? sign * mant * 2 ** -24 : exp === 0x1f ? (mant ? NaN : sign * Infinity) : sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/**
 * Task: { file, threads, arena (default true), input, output, dtype, scale, reduce (1 or 2), rgb (Uint8Array tw×th×3), tw, th,
 *         core: { x0, y0, w, h } (core rectangle inside the tile, input px) }
 * Reply: { ok: true, rgb: Uint8Array (core·scale/reduce, interleaved), w, h, runMs, runCpuMs, allCpuMs } or { ok: false, error }.
 */
parentPort.on('message', async (t) => {
  try {
    const cAll = process.cpuUsage();
    const s = await session(t.file, t.threads, t.arena !== false);
    const plane = t.tw * t.th;
    const half = t.dtype === 'float16';
    const buf = half ? new Uint16Array(3 * plane) : new Float32Array(3 * plane);
    for (let i = 0, o = 0; i < plane; i++, o += 3) {
      const r = t.rgb[o] / 255, g = t.rgb[o + 1] / 255, b = t.rgb[o + 2] / 255;
      if (half) { buf[i] = toHalf(r); buf[plane + i] = toHalf(g); buf[2 * plane + i] = toHalf(b); }
      else { buf[i] = r; buf[plane + i] = g; buf[2 * plane + i] = b; }
    }
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await s.run({ [t.input]: new ort.Tensor(t.dtype, buf, [1, 3, t.th, t.tw]) });
    const runMs = performance.now() - t0;
    const c1 = process.cpuUsage(c0);
    const out = res[t.output];
    if (!out) throw new Error(`SR_FAILED: model output '${t.output}' missing`);
    const raw = half ? toFloat(out.data) : out.data;
    const sc = t.scale, red = t.reduce;
    const ow = t.tw * sc, oplane = ow * t.th * sc;
    const cw = (t.core.w * sc) / red, ch = (t.core.h * sc) / red;
    const rgb = new Uint8Array(cw * ch * 3);
    const norm = 255 / (red * red);
    for (let c = 0; c < 3; c++) {
      const base = c * oplane;
      for (let y = 0; y < ch; y++) {
        const row0 = base + (t.core.y0 * sc + y * red) * ow + t.core.x0 * sc;
        let d = y * cw * 3 + c;
        if (red === 1) {
          for (let x = 0; x < cw; x++, d += 3) {
            const v = raw[row0 + x];
            rgb[d] = Math.round((v < 0 ? 0 : v > 1 ? 1 : v) * 255);
          }
        } else {
          // 2×2 mean of clamped model pixels: overshoots would otherwise bleed into their neighbours
          const row1 = row0 + ow;
          for (let x = 0; x < cw; x++, d += 3) {
            const k = 2 * x;
            const a = raw[row0 + k], b = raw[row0 + k + 1], e = raw[row1 + k], f = raw[row1 + k + 1];
            const s4 = (a < 0 ? 0 : a > 1 ? 1 : a) + (b < 0 ? 0 : b > 1 ? 1 : b) + (e < 0 ? 0 : e > 1 ? 1 : e) + (f < 0 ? 0 : f > 1 ? 1 : f);
            rgb[d] = Math.round(s4 * norm);
          }
        }
      }
    }
    out.dispose?.();
    const c2 = process.cpuUsage(cAll);
    // CPU times are process-wide (Node 20 has no per-thread figure): exact only while this worker runs alone
    parentPort.postMessage({ ok: true, rgb, w: cw, h: ch, runMs, runCpuMs: (c1.user + c1.system) / 1000, allCpuMs: (c2.user + c2.system) / 1000 }, [rgb.buffer]);
  } catch (err) {
    parentPort.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
