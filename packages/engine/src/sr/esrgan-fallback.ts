import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TF from '@tensorflow/tfjs';
import type { RgbImage } from '../io/image-io';
import { tileGrid } from './tile-grid';

// Required through CommonJS on purpose: @vladmandic/human's wasm build requires tfjs-core the same way,
// so both share one tfjs engine and one wasm backend instance.
const require = createRequire(import.meta.url);

/** Tile edge for the tfjs-wasm path: larger tiles exhaust the wasm heap (GUIDE §4). */
export const FALLBACK_TILE = 256;
const OVERLAP = 16;

let tfPromise: Promise<typeof TF> | undefined;
const models = new Map<number, Promise<TF.LayersModel>>();

/** tfjs with the wasm backend initialised (shared with face analysis). */
export function getTf(): Promise<typeof TF> {
  tfPromise ??= (async () => {
    const tf = require('@tensorflow/tfjs') as typeof TF;
    const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(p: string): void };
    wasm.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep);
    if (tf.getBackend() !== 'wasm') await tf.setBackend('wasm');
    await tf.ready();
    return tf;
  })();
  return tfPromise;
}

interface LayersModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  weightsManifest: Array<{ paths: string[]; weights: TF.io.WeightsManifestEntry[] }>;
}

/** Loads the esrgan-slim x2/x4 layers model shipped inside @upscalerjs/esrgan-slim from disk. */
function loadModel(scale: 2 | 4): Promise<TF.LayersModel> {
  let m = models.get(scale);
  if (!m) {
    m = (async () => {
      const tf = await getTf();
      const pkgMain = require.resolve('@upscalerjs/esrgan-slim');
      const root = pkgMain.slice(0, pkgMain.lastIndexOf(`${path.sep}dist${path.sep}`));
      const dir = path.join(root, 'models', `x${scale}`);
      const json = JSON.parse(await readFile(path.join(dir, 'model.json'), 'utf8')) as LayersModelJson;
      const buffers = await Promise.all(json.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(path.join(dir, p))));
      const all = Buffer.concat(buffers);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
      return tf.loadLayersModel({
        load: () => Promise.resolve({
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
          weightData,
        }),
      });
    })();
    m.catch(() => models.delete(scale));
    models.set(scale, m);
  }
  return m;
}

/**
 * UpscalerJS esrgan-slim (RDN, idealo weights; inputs and outputs 0..255 NHWC) on tfjs-wasm, tiled
 * 256 px with 16 px cropped context. Used when no ONNX model file is installed, and as the bench baseline.
 */
export async function upscaleEsrganSlim(img: RgbImage, scale: 2 | 4, onTile?: (done: number, total: number) => void): Promise<RgbImage> {
  const tf = await getTf();
  const model = await loadModel(scale);
  const W = img.width, H = img.height, OW = W * scale;
  const out = new Uint8Array(W * scale * H * scale * 3);
  const tiles = tileGrid(W, H, FALLBACK_TILE, OVERLAP);
  let done = 0;
  for (const { cx0, cy0, cx1, cy1, rx0, ry0, tw, th } of tiles) {
    const buf = new Float32Array(tw * th * 3);
    for (let y = 0; y < th; y++) {
      const o = ((ry0 + y) * W + rx0) * 3;
      for (let k = 0; k < tw * 3; k++) buf[y * tw * 3 + k] = img.data[o + k]!;
    }
    const data = tf.tidy(() => {
      const x = tf.tensor4d(buf, [1, th, tw, 3]);
      return (model.predict(x) as TF.Tensor).clipByValue(0, 255);
    });
    const vals = (await data.data()) as Float32Array;
    data.dispose();
    const ow = tw * scale;
    const ox0 = (cx0 - rx0) * scale, oy0 = (cy0 - ry0) * scale, cw = (cx1 - cx0) * scale, ch = (cy1 - cy0) * scale;
    for (let y = 0; y < ch; y++) {
      const s = ((oy0 + y) * ow + ox0) * 3;
      const d = ((cy0 * scale + y) * OW + cx0 * scale) * 3;
      for (let k = 0; k < cw * 3; k++) out[d + k] = Math.round(vals[s + k]!);
    }
    onTile?.(++done, tiles.length);
  }
  return { data: out, width: OW, height: H * scale };
}
