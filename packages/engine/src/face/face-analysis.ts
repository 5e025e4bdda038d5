import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage, resizeRgb, type RgbImage } from '../io/image-io';
import { regionsFromMesh, type FaceRegions, type Point } from './face-regions';

const require = createRequire(import.meta.url);

/** Axis-aligned box in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One detected face, all coordinates in pixels of the analysed image. */
export interface DetectedFace {
  /** Detector confidence 0..1. */
  score: number;
  /** Tight box around the mesh (more accurate than the detector's square box). */
  box: Box;
  /** 468 (478 with iris refinement) landmarks [x, y, z]; z is relative depth, not pixels. */
  mesh: Array<[number, number, number]>;
  regions: FaceRegions;
}

/** Result of {@link analyzeFacesRgb}: faces sorted by area, largest first. */
export interface FaceAnalysis {
  width: number;
  height: number;
  faces: DetectedFace[];
}

/** Detection runs on a copy whose long side is at most this many pixels: the detector works at 256 px anyway. */
const DETECT_MAX_SIDE = 1280;

// Minimal structural types for the parts of Human we use (its d.ts lives behind the exports map).
interface HumanFaceResult { score: number; mesh: number[][] }
export interface HumanTensor { dispose(): void; shape: number[]; data(): Promise<ArrayLike<number>> }
export interface HumanLike {
  load(): Promise<void>;
  detect(input: HumanTensor): Promise<{ face: HumanFaceResult[] }>;
  /** Runs the configured segmentation model; with mode 'alpha' returns an int32 [h, w, 1] tensor 0..255, or null. */
  segmentation(input: HumanTensor, config: { segmentation: { enabled: boolean; modelPath: string; mode: 'alpha' } }): Promise<HumanTensor | null>;
  tf: { tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): HumanTensor };
}

let humanPromise: Promise<HumanLike> | undefined;

/**
 * Node's fetch() has no file: scheme, and Human loads its model JSON/bins with fetch. Serve file:// URLs
 * from disk and pass everything else through untouched.
 */
function installFileFetch(): void {
  const g = globalThis as { fetch: typeof fetch; __dewyFileFetch?: boolean };
  if (g.__dewyFileFetch) return;
  const original = g.fetch.bind(globalThis);
  g.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('file://')) return new Response(await readFile(fileURLToPath(url)), { status: 200 });
    return original(input, init);
  }) as typeof fetch;
  g.__dewyFileFetch = true;
}

async function createHuman(): Promise<HumanLike> {
  installFileFetch();
  // package main is dist/human.node.js (tfjs-node); the wasm build sits beside it but is not exported.
  const humanRoot = path.dirname(path.dirname(require.resolve('@vladmandic/human')));
  const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
  const mod = require(path.join(humanRoot, 'dist', 'human.node-wasm.js')) as { Human: new (cfg: unknown) => HumanLike };
  const human = new mod.Human({
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: `file://${path.join(humanRoot, 'models')}/`,
    debug: false,
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 10, minConfidence: 0.35, return: false },
      mesh: { enabled: true },
      iris: { enabled: true },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  });
  await human.load();
  return human;
}

/** The shared Human instance (tfjs-wasm backend), created and face models loaded on first use. */
export function getHuman(): Promise<HumanLike> {
  humanPromise ??= createHuman().catch((err: unknown) => {
    humanPromise = undefined;
    throw new Error(`FACE_MODEL_LOAD: ${err instanceof Error ? err.message : String(err)}`);
  });
  return humanPromise;
}

/** Loads the face models ahead of the first job (worker warm-up). */
export async function warmUpFaceModels(): Promise<void> {
  await getHuman();
}

function boxOf(points: readonly Point[]): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of points) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Finds faces and their 478-point mesh with @vladmandic/human (BlazeFace + FaceMesh + iris, tfjs-wasm),
 * then derives region polygons. Coordinates are in pixels of `img`. Throws `FACE_MODEL_LOAD: …` if the
 * models cannot be loaded. A photo without faces returns `faces: []` (not an error).
 */
export async function analyzeFacesRgb(img: RgbImage): Promise<FaceAnalysis> {
  const human = await getHuman();
  const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(img.width, img.height));
  const small = scale < 1 ? await resizeRgb(img, Math.round(img.width * scale), Math.round(img.height * scale)) : img;
  const sx = img.width / small.width;
  const sy = img.height / small.height;
  const tensor = human.tf.tensor3d(small.data, [small.height, small.width, 3], 'int32');
  let found: HumanFaceResult[];
  try {
    found = (await human.detect(tensor)).face;
  } finally {
    tensor.dispose();
  }
  const faces: DetectedFace[] = [];
  for (const f of found) {
    if (!f.mesh || f.mesh.length < 468) continue; // detector hit without a usable mesh
    const mesh = f.mesh.map((p): [number, number, number] => [(p[0] ?? 0) * sx, (p[1] ?? 0) * sy, p[2] ?? 0]);
    const regions = regionsFromMesh(mesh);
    faces.push({ score: f.score, box: boxOf(regions.faceOval), mesh, regions });
  }
  faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  return { width: img.width, height: img.height, faces };
}

/** Maps an analysis to another size of the same picture (e.g. from input size to output size). */
export function scaleFaceAnalysis(a: FaceAnalysis, width: number, height: number): FaceAnalysis {
  const sx = width / a.width;
  const sy = height / a.height;
  const sp = (p: Point): Point => [p[0] * sx, p[1] * sy];
  return {
    width,
    height,
    faces: a.faces.map((f) => {
      const regions = Object.fromEntries(Object.entries(f.regions).map(([k, poly]) => [k, (poly as Point[]).map(sp)])) as unknown as FaceRegions;
      return {
        score: f.score,
        box: { x: f.box.x * sx, y: f.box.y * sy, width: f.box.width * sx, height: f.box.height * sy },
        mesh: f.mesh.map((p): [number, number, number] => [p[0] * sx, p[1] * sy, p[2]]),
        regions,
      };
    }),
  };
}

/**
 * Public entry: decodes image bytes (EXIF-rotated) and returns its faces. Errors: `NO_IMAGE_DECODE`,
 * `IMAGE_TOO_LARGE`, `FACE_MODEL_LOAD`.
 */
export async function analyzeFaces(input: Buffer): Promise<FaceAnalysis> {
  return analyzeFacesRgb(await decodeImage(input));
}
