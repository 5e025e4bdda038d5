import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage, resizeRgb, type RgbImage } from '../io/image-io';
import { judgeFit, measureFitSignals, rollFromRegions, type FaceFit } from './face-fit';
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
  /**
   * How well the mesh sits on the face (see face-fit.ts): 'good' faces are retouched, 'fair' lightly,
   * 'poor' not at all. Optional so hand-built faces (tests) stay valid; the analysis always sets it.
   */
  fit?: FaceFit;
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
interface HumanFaceResult { score: number; boxScore?: number; faceScore?: number; mesh: number[][] }
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

/** A face as one detection pass saw it, mesh in pixels of the analysed image, with its fit. */
type Candidate = Required<DetectedFace>;

/** Rotated crops tried, in degrees relative to the mesh's own roll estimate, when a face does not fit well. */
const RETRY_ANGLES = [0, 20, -20, 35, -35] as const;
/** Side (px) of the square face crop the second pass runs on: the face fills about half of it. */
const CROP_SIDE = 320;

/**
 * Square windows (in pixels of a `width`×`height` image) the detector runs on. BlazeFace sees its input
 * squeezed to 256×256, so a wide group photo (3:1) squashes every face until none is found (measured:
 * 0 of 4 faces on a 1518×527 group, 4 of 4 in 527² windows). Near-square images are one window; longer
 * ones get windows of the short side stepping by half of it along the long side. With `fine`, windows of
 * half that side are added (small faces in a large photo).
 */
export function detectionWindows(width: number, height: number, fine = false): Box[] {
  const out: Box[] = [];
  const long = Math.max(width, height), short = Math.min(width, height);
  const add = (side: number): void => {
    const stepsX = width > side ? Math.ceil((width - side) / (side / 2)) : 0;
    const stepsY = height > side ? Math.ceil((height - side) / (side / 2)) : 0;
    for (let j = 0; j <= stepsY; j++) {
      for (let i = 0; i <= stepsX; i++) {
        const x = stepsX === 0 ? 0 : Math.round((i * (width - side)) / stepsX);
        const y = stepsY === 0 ? 0 : Math.round((j * (height - side)) / stepsY);
        out.push({ x, y, width: Math.min(side, width), height: Math.min(side, height) });
      }
    }
  };
  if (long <= 1.5 * short) out.push({ x: 0, y: 0, width, height });
  else add(short);
  if (fine && short >= 480) add(Math.round(short / 2));
  return out;
}

function cropRgb(img: RgbImage, b: Box): RgbImage {
  const w = b.width, h = b.height, d = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) d.set(img.data.subarray(((b.y + y) * img.width + b.x) * 3, ((b.y + y) * img.width + b.x + w) * 3), y * w * 3);
  return { data: d, width: w, height: h };
}

/**
 * Square crop of `side` source px centred on (cx, cy), sampled bilinearly onto n×n px with its axes
 * turned by `deg` degrees (clockwise in the image), so a face rolled by `deg` comes out upright.
 * Outside the image: mid grey. Returns the crop and the map from crop pixels back to source pixels.
 */
function rotatedCrop(img: RgbImage, cx: number, cy: number, side: number, deg: number, n: number): { crop: RgbImage; toSource: (p: readonly number[]) => [number, number, number] } {
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), k = side / n;
  const toSource = (p: readonly number[]): [number, number, number] => {
    const u = (p[0]! - n / 2) * k, v = (p[1]! - n / 2) * k;
    return [cx + c * u - s * v, cy + s * u + c * v, (p[2] ?? 0) * k];
  };
  const d = new Uint8Array(n * n * 3);
  const { width: W, height: H, data } = img;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const [sx, sy] = toSource([x + 0.5, y + 0.5]);
      const fx = sx - 0.5, fy = sy - 0.5;
      const x0 = Math.floor(fx), y0 = Math.floor(fy), wx = fx - x0, wy = fy - y0;
      const o = (y * n + x) * 3;
      if (x0 < 0 || y0 < 0 || x0 + 1 >= W || y0 + 1 >= H) { d[o] = d[o + 1] = d[o + 2] = 128; continue; }
      const i00 = (y0 * W + x0) * 3, i10 = i00 + 3, i01 = i00 + W * 3, i11 = i01 + 3;
      for (let ch = 0; ch < 3; ch++) {
        const top = data[i00 + ch]! + wx * (data[i10 + ch]! - data[i00 + ch]!);
        const bot = data[i01 + ch]! + wx * (data[i11 + ch]! - data[i01 + ch]!);
        d[o + ch] = Math.round(top + wy * (bot - top));
      }
    }
  }
  return { crop: { data: d, width: n, height: n }, toSource };
}

async function detect(human: HumanLike, img: RgbImage): Promise<HumanFaceResult[]> {
  const tensor = human.tf.tensor3d(img.data, [img.height, img.width, 3], 'int32');
  try {
    return (await human.detect(tensor)).face.filter((f) => f.mesh && f.mesh.length >= 468);
  } finally {
    tensor.dispose();
  }
}

/** Builds a candidate from a Human face whose mesh `map` takes into pixels of `img`, and judges its fit there. */
function candidate(img: RgbImage, f: HumanFaceResult, map: (p: readonly number[]) => [number, number, number], pass: FaceFit['pass']): Candidate {
  const mesh = f.mesh.map(map);
  const regions = regionsFromMesh(mesh);
  const box = boxOf(regions.faceOval);
  const signals = measureFitSignals(img, mesh, regions, box.width, f.boxScore ?? f.score, f.faceScore ?? f.score);
  const { verdict, score } = judgeFit(signals);
  return { score: f.score, mesh, regions, box, fit: { verdict, score, signals, pass, rollDeg: Math.round(rollFromRegions(regions) * 10) / 10 } };
}

function iou(a: Box, b: Box): number {
  const x0 = Math.max(a.x, b.x), y0 = Math.max(a.y, b.y), x1 = Math.min(a.x + a.width, b.x + b.width), y1 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.width * a.height + b.width * b.height - inter || 1);
}

/** Adds `c` to `list` unless it duplicates a face already there; of two duplicates the better fit stays. */
function merge(list: Candidate[], c: Candidate): void {
  const k = list.findIndex((o) => iou(o.box, c.box) > 0.3);
  if (k < 0) list.push(c);
  else if (c.fit.score > list[k]!.fit.score) list[k] = c;
}

/**
 * Second pass for one face: re-detected on a square crop (2.2 face sizes, sampled to 320 px) of the full-
 * resolution photo `img` turned upright by the mesh's roll; if neither mesh looks good, on crops turned by
 * a further ±20° and ±35° ({@link RETRY_ANGLES}); the best fit wins (the input when nothing fits better).
 * A face without a `fit` is judged first. Throws `FACE_MODEL_LOAD` like the analysis.
 */
export async function refitFace(img: RgbImage, face: DetectedFace): Promise<DetectedFace> {
  const human = await getHuman();
  const c: Candidate = face.fit ? (face as Candidate) : { ...face, fit: judgeFace(img, face) };
  return refine(human, img, c);
}

/** Fit of a face's mesh on `img` (the picture its coordinates refer to); pass 'whole' unless given. */
export function judgeFace(img: RgbImage, face: DetectedFace, pass: FaceFit['pass'] = 'whole'): FaceFit {
  const signals = measureFitSignals(img, face.mesh, face.regions, face.box.width, face.score, face.score);
  const { verdict, score } = judgeFit(signals);
  return { verdict, score, signals, pass, rollDeg: Math.round(rollFromRegions(face.regions) * 10) / 10 };
}

/** One detection on a crop turned by `deg` around the face `c`: the face nearest the crop centre, mapped back. */
async function cropPass(human: HumanLike, img: RgbImage, c: Candidate, deg: number): Promise<Candidate | null> {
  const cx = c.box.x + c.box.width / 2, cy = c.box.y + c.box.height / 2;
  const side = 2.2 * Math.max(c.box.width, c.box.height);
  const { crop, toSource } = rotatedCrop(img, cx, cy, side, deg, CROP_SIDE);
  let pick: HumanFaceResult | undefined, bestD = Infinity;
  for (const f of await detect(human, crop)) {
    const b = boxOf(regionsFromMesh(f.mesh).faceOval);
    const d = Math.hypot(b.x + b.width / 2 - CROP_SIDE / 2, b.y + b.height / 2 - CROP_SIDE / 2);
    if (b.width > 0.2 * CROP_SIDE && d < 0.25 * CROP_SIDE && d < bestD) { pick = f; bestD = d; }
  }
  return pick ? candidate(img, pick, toSource, 'rotated') : null;
}

/** Mean distance of the 468 shared landmarks of two meshes, in % of `a`'s face width. */
function meshShiftPct(a: Candidate, b: Candidate): number {
  let s = 0;
  for (let i = 0; i < 468; i++) s += Math.hypot(a.mesh[i]![0] - b.mesh[i]![0], a.mesh[i]![1] - b.mesh[i]![1]);
  return (100 * s) / 468 / Math.max(1, a.box.width);
}

/** Two passes whose meshes differ by less than this (% of face width) confirm each other. */
const AGREE_PCT = 5;

/** Face width of `b`'s mesh ÷ `a`'s (the size check between two passes). */
function sizeRatio(a: Candidate, b: Candidate): number {
  return b.box.width / Math.max(1, a.box.width);
}

/** `c` with the second pass's agreement figures added to its signals (rounded to 0.1 % and 0.01). */
function withPassSignals(c: Candidate, shiftPct: number, ratio: number): Candidate {
  return { ...c, fit: { ...c.fit, signals: { ...c.fit.signals, passShiftPct: Math.round(shiftPct * 10) / 10, passSizeRatio: Math.round(ratio * 100) / 100 } } };
}

async function refine(human: HumanLike, img: RgbImage, c: Candidate): Promise<Candidate> {
  const base = Math.abs(c.fit.rollDeg) <= 60 ? Math.round(c.fit.rollDeg) : 0;
  // verification: the same face, upright, at about 320 px — an independent second look
  const v = await cropPass(human, img, c, base);
  let best = c;
  // the input mesh may only win when no independent look contradicts it
  let inputRefuted = false;
  if (v) {
    const shift = meshShiftPct(c, v);
    if (shift > AGREE_PCT) {
      // The two looks disagree (in place or in size: a mesh scaled 0.75× or 1.3× about the face centre
      // still passes the appearance signals, measured). A third look, centred and sized on the second
      // mesh, decides: when it reproduces the second mesh and not the first, the first is a misfit and
      // is dropped (the face is refitted); otherwise neither is confirmed and the rule below applies.
      const w = await cropPass(human, img, v, base);
      if (w && meshShiftPct(v, w) <= AGREE_PCT && meshShiftPct(c, w) > AGREE_PCT) {
        inputRefuted = true;
        const pick = w.fit.score > v.fit.score ? w : v;
        best = withPassSignals(pick, meshShiftPct(v, w), sizeRatio(v, w));
        if (best.fit.verdict === 'good') return best;
      }
    }
    if (!inputRefuted) {
      best = v.fit.score > c.fit.score ? v : c;
      best = withPassSignals(best, shift, sizeRatio(c, v));
      if (best.fit.verdict === 'good') {
        // two good-looking meshes in different places: the appearance cannot tell which is right unless
        // one scores clearly better, so the face is only retouched lightly
        const other = best.mesh === c.mesh ? v : c;
        if (shift > AGREE_PCT && other.fit.verdict === 'good' && best.fit.score - other.fit.score < 0.15) best = { ...best, fit: { ...best.fit, verdict: 'fair' } };
        return best;
      }
    }
  }
  const tried = new Set<number>([base]);
  for (const extra of RETRY_ANGLES) {
    const deg = Math.round(base + extra);
    if (tried.has(deg)) continue;
    tried.add(deg);
    const r = await cropPass(human, img, inputRefuted ? best : c, deg);
    if (r && r.fit.score > best.fit.score) best = r;
    if (best.fit.verdict === 'good') break;
  }
  // a refuted input mesh is never returned: the confirmed mesh (or a retry's better one) stands in for
  // it, and if that does not look right either its verdict leaves the face untouched
  return best;
}

/**
 * Finds faces and their 478-point mesh with @vladmandic/human (BlazeFace + FaceMesh + iris, tfjs-wasm),
 * derives region polygons and judges each mesh's fit (face-fit.ts). Passes: (1) the detector on square
 * windows of a copy ≤ 1280 px ({@link detectionWindows}; finer windows too when no face or only small
 * faces were found), duplicates merged; (2) every face is re-detected on a crop of the full-resolution
 * photo turned upright by its mesh's roll: the two meshes agreeing confirm a good fit; when neither looks
 * good, crops turned by a further ±20° and ±35° are tried and the best fit kept.
 * Coordinates are in pixels of `img`. Throws `FACE_MODEL_LOAD: …` if the models cannot be loaded. A
 * photo without faces returns `faces: []` (not an error).
 */
export async function analyzeFacesRgb(img: RgbImage): Promise<FaceAnalysis> {
  const human = await getHuman();
  const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(img.width, img.height));
  const small = scale < 1 ? await resizeRgb(img, Math.round(img.width * scale), Math.round(img.height * scale)) : img;
  const sx = img.width / small.width;
  const sy = img.height / small.height;
  const found: Candidate[] = [];
  const runWindows = async (windows: Box[], pass: FaceFit['pass']): Promise<void> => {
    for (const w of windows) {
      const part = w.width === small.width && w.height === small.height ? small : cropRgb(small, w);
      for (const f of await detect(human, part)) {
        merge(found, candidate(img, f, (p) => [((p[0] ?? 0) + w.x) * sx, ((p[1] ?? 0) + w.y) * sy, (p[2] ?? 0) * sx], pass));
      }
    }
  };
  const coarse = detectionWindows(small.width, small.height);
  await runWindows(coarse, coarse.length === 1 ? 'whole' : 'window');
  // small faces: a face under a fifth of the short side is near the detector's limit at 256 px input
  const minSide = Math.min(small.width, small.height);
  const smallest = found.reduce((m, c) => Math.min(m, c.box.width / sx), Infinity);
  if (found.length === 0 || smallest < 0.2 * minSide) {
    const fine = detectionWindows(small.width, small.height, true).slice(coarse.length);
    await runWindows(fine, 'window');
  }
  const faces: DetectedFace[] = [];
  for (const c of found) {
    const r = await refine(human, img, c);
    faces.push({ score: r.score, box: r.box, mesh: r.mesh, regions: r.regions, fit: r.fit });
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
        ...(f.fit ? { fit: f.fit } : {}),
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
