import * as ort from 'onnxruntime-node';
import type { RgbImage } from '../io/image-io';
import { fromHalf, toHalf } from './half-float';
import type { ManifestEntry } from './model-registry';
import { tileGrid } from './tile-grid';

/** Tile edge (input pixels) and overlap: whole-image inference on a 1024 px input needs > 1.5 GB. */
export const SR_TILE = 256;
export const SR_OVERLAP = 16;

const sessions = new Map<string, Promise<ort.InferenceSession>>();

function getSession(file: string): Promise<ort.InferenceSession> {
  let s = sessions.get(file);
  if (!s) {
    s = ort.InferenceSession.create(file, {
      intraOpNumThreads: 2, // both cores of the target machine; the pool runs one job per worker
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
      // no busy-waiting between operators: the API process and other jobs share these 2 cores, and
      // measured under load spinning burned ~20 % more CPU per tile for no wall-time gain
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    s.catch(() => sessions.delete(file));
    sessions.set(file, s);
  }
  return s;
}

/**
 * Runs a ×scale ONNX SR model over `img` in overlapping tiles (256 px + 16 px context each side, context
 * cropped away so no seams), clamping outputs to 0..1 before 8-bit (realesr-general-x4v3 overshoots on
 * ~1.4 % of pixels, which shows as speckles). Returns the full ×scale RGB image.
 */
export async function upscaleOnnx(img: RgbImage, file: string, entry: ManifestEntry, onTile?: (done: number, total: number) => void): Promise<RgbImage> {
  const session = await getSession(file);
  const s = entry.scale;
  const W = img.width, H = img.height, OW = W * s, OH = H * s;
  const out = new Uint8Array(OW * OH * 3);
  const tiles = tileGrid(W, H, SR_TILE, SR_OVERLAP);
  let done = 0;
  for (const { cx0, cy0, cx1, cy1, rx0, ry0, tw, th } of tiles) {
    const plane = tw * th;
    const f32 = new Float32Array(3 * plane);
    for (let y = 0; y < th; y++) {
      let o = ((ry0 + y) * W + rx0) * 3;
      for (let x = 0, i = y * tw; x < tw; x++, i++, o += 3) {
        f32[i] = img.data[o]! / 255;
        f32[plane + i] = img.data[o + 1]! / 255;
        f32[2 * plane + i] = img.data[o + 2]! / 255;
      }
    }
    let input: ort.Tensor;
    if (entry.dtype === 'float16') {
      const u16 = new Uint16Array(f32.length);
      for (let i = 0; i < f32.length; i++) u16[i] = toHalf(f32[i]!);
      input = new ort.Tensor('float16', u16, [1, 3, th, tw]);
    } else {
      input = new ort.Tensor('float32', f32, [1, 3, th, tw]);
    }
    const result = await session.run({ [entry.input]: input });
    const t = result[entry.output];
    if (!t) throw new Error(`SR_FAILED: model output '${entry.output}' missing`);
    const raw = t.data as Float32Array | Uint16Array;
    const half = entry.dtype === 'float16';
    const ow = tw * s, oplane = ow * th * s;
    // copy only the core (without the overlap context) into the output
    const ox0 = (cx0 - rx0) * s, oy0 = (cy0 - ry0) * s, cw = (cx1 - cx0) * s, ch = (cy1 - cy0) * s;
    for (let y = 0; y < ch; y++) {
      const srow = (oy0 + y) * ow + ox0;
      let d = ((cy0 * s + y) * OW + cx0 * s) * 3;
      for (let x = 0; x < cw; x++, d += 3) {
        for (let c = 0; c < 3; c++) {
          const v = half ? fromHalf((raw as Uint16Array)[c * oplane + srow + x]!) : (raw as Float32Array)[c * oplane + srow + x]!;
          out[d + c] = Math.round((v < 0 ? 0 : v > 1 ? 1 : v) * 255);
        }
      }
    }
    t.dispose?.();
    onTile?.(++done, tiles.length);
  }
  return { data: out, width: OW, height: OH };
}
