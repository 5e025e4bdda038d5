/**
 * The bench baseline: UpscalerJS itself (`upscaler` 1.0 browser build, which runs in Node when given
 * tensors) with the esrgan-slim ×2 model on tfjs-wasm. `upscaler/node` would need @tensorflow/tfjs-node,
 * which is not installed, so the model's weights are handed to it through a tfjs IOHandler.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TF from '@tensorflow/tfjs';
import x2 from '@upscalerjs/esrgan-slim/2x';
import Upscaler from 'upscaler';
import type { RgbImage } from '../src/io/image-io';
import { getTf } from '../src/sr/esrgan-fallback';

const require = createRequire(import.meta.url);

export async function createUpscalerJs(): Promise<(img: RgbImage) => Promise<RgbImage>> {
  const tf = await getTf();
  const main = require.resolve('@upscalerjs/esrgan-slim');
  const dir = path.join(main.slice(0, main.lastIndexOf(`${path.sep}dist${path.sep}`)), 'models', 'x2');
  const json = JSON.parse(await readFile(path.join(dir, 'model.json'), 'utf8')) as { modelTopology: object; weightsManifest: Array<{ paths: string[]; weights: TF.io.WeightsManifestEntry[] }> };
  const bin = Buffer.concat(await Promise.all(json.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(path.join(dir, p)))));
  const handler: TF.io.IOHandler = {
    load: () => Promise.resolve({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer,
    }),
  };
  const upscaler = new Upscaler({ model: { ...(x2 as object), path: handler } as never });
  await upscaler.getModel();
  return async (img) => {
    const input = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32');
    // same tiling as the engine: 256 px patches with 16 px padding
    const out = (await upscaler.execute(input as never, { output: 'tensor', patchSize: 256, padding: 16 } as never)) as unknown as TF.Tensor3D;
    input.dispose();
    const data = new Uint8Array(await out.clipByValue(0, 255).round().data());
    const [h, w] = out.shape;
    out.dispose();
    return { data, width: w, height: h };
  };
}
