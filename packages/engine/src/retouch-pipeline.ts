import type { EngineConfig, FaceFitMeta, RetouchOptions, RetouchResult } from './engine-types';
import { analyzeFacesRgb, scaleFaceAnalysis, type DetectedFace, type FaceAnalysis } from './face/face-analysis';
import { decodeImage, encodeImage, type RgbImage } from './io/image-io';
import { buildHairMask, type HairMaskMethod } from './mask/hair-mask';
import { personMatte } from './mask/person-matte';
import { createPlane, featherOutside, fillPolygon, type Plane } from './mask/mask-raster';
import { buildGlobalLook } from './retouch/color-grade';
import { filterKindOf, lightParams, retouchParamsFor, type RetouchParams } from './retouch/retouch-params';
import { retouchFace } from './retouch/skin-retouch';
import { resizeToOutput } from './sr/super-resolution';

/** What local retouch a face gets from its fit verdict (no verdict: treated as good, e.g. hand-built faces). */
export function retouchLevelOf(face: DetectedFace): FaceFitMeta['retouch'] {
  const v = face.fit?.verdict ?? 'good';
  return v === 'good' ? 'full' : v === 'fair' ? 'light' : 'none';
}

function validate(opts: RetouchOptions): void {
  const bad = (m: string): never => { throw new Error(`INVALID_OPTIONS: ${m}`); };
  if (!opts || typeof opts !== 'object') bad('options missing');
  retouchParamsFor(opts.loraIndex);
  if (!(typeof opts.scaleFactor === 'number' && opts.scaleFactor > 0 && opts.scaleFactor <= 2)) bad(`scaleFactor must be in (0, 2], got ${opts.scaleFactor}`);
  if (opts.filterIndex !== 0 && opts.filterIndex !== 1) bad(`filterIndex must be 0 or 1, got ${String(opts.filterIndex)}`);
  if (!(opts.filterStrength >= 0 && opts.filterStrength <= 1)) bad(`filterStrength must be in [0, 1], got ${opts.filterStrength}`);
  if (opts.outputFormat !== 'jpg' && opts.outputFormat !== 'png') bad(`outputFormat must be jpg or png, got ${String(opts.outputFormat)}`);
  if (opts.outputQuality !== undefined && !(Number.isFinite(opts.outputQuality) && opts.outputQuality >= 1 && opts.outputQuality <= 100)) bad(`outputQuality must be 1..100, got ${opts.outputQuality}`);
  if (opts.srModel && opts.srModel !== 'lsdir-compact-c3' && opts.srModel !== 'realesr-general-x4v3') bad(`unknown srModel ${String(opts.srModel)}`);
  if (!opts.exclude || typeof opts.exclude !== 'object') bad('exclude missing');
}

/**
 * Hard mask (1 inside) of every excluded region at output size, and its soft companion that is exactly
 * 1 inside and feathers only outward — so excluded pixels skip local retouch entirely. Polygon regions
 * come from faces that are retouched at all (a poor fit's polygons may sit anywhere, and its face is left
 * alone anyway). `matte` is the person matte at output size for the hair mask (null/undefined: colour
 * heuristic); the hair's soft fringe (matte between the ramp's ends) blends partially through `soft`.
 */
export function buildExclusionMasks(plain: RgbImage, faces: FaceAnalysis, ex: RetouchOptions['exclude'], matte?: Plane | null): { hard: Plane; soft: Plane } | null {
  const hard = createPlane(plain.width, plain.height);
  let any = false;
  for (const f of faces.faces) {
    if (retouchLevelOf(f) === 'none') continue;
    const r = f.regions;
    const polys = [ex.upperLip && r.upperLip, ex.lowerLip && r.lowerLip, ex.leftEyebrow && r.leftEyebrow, ex.rightEyebrow && r.rightEyebrow, ex.nose && r.nose];
    for (const p of polys) if (p) { fillPolygon(hard, p); any = true; }
  }
  let hair: Plane | null = null;
  if (ex.hair && faces.faces.length > 0) {
    hair = buildHairMask(plain, faces.faces, matte);
    for (let i = 0; i < hair.data.length; i++) if (hair.data[i]! >= 1) hard.data[i] = 1;
    any = true;
  }
  if (!any) return null;
  const fw = faces.faces[0]?.box.width ?? plain.width / 4;
  // a wide outward ramp: an untouched nose or lip next to filtered skin reads as a patch with a short one
  const soft = featherOutside(hard, Math.max(2, 0.03 * fw));
  if (hair) for (let i = 0; i < hair.data.length; i++) if (hair.data[i]! > soft.data[i]!) soft.data[i] = hair.data[i]!;
  return { hard, soft };
}

/**
 * The local retouch of every face on a copy of `plain` (output size): full parameters for a good fit,
 * {@link lightParams} for a fair one, nothing for a poor one (its pixels stay exactly `plain`'s).
 * `matte` (image size) keeps skin growth on the person. `onProgress` gets 0..1 after each face.
 */
export function localRetouch(plain: RgbImage, faces: readonly DetectedFace[], params: RetouchParams, matte?: Plane | null, onProgress?: (fraction: number) => void): RgbImage {
  const work: RgbImage = { data: new Uint8Array(plain.data), width: plain.width, height: plain.height };
  const light = lightParams(params);
  const todo = faces.filter((f) => retouchLevelOf(f) !== 'none');
  todo.forEach((face, k) => {
    retouchFace(work, face, retouchLevelOf(face) === 'light' ? light : params, matte);
    onProgress?.((k + 1) / todo.length);
  });
  return work;
}

/** Puts the plain image back into `work` where excluded: exactly inside `hard`, blended by `soft` around it. In place. */
export function compositeExclusions(work: RgbImage, plain: RgbImage, exclusion: { hard: Plane; soft: Plane }): void {
  const { hard, soft } = exclusion;
  const d = work.data, p = plain.data;
  for (let i = 0, o = 0; i < hard.data.length; i++, o += 3) {
    if (hard.data[i]! >= 1) { d[o] = p[o]!; d[o + 1] = p[o + 1]!; d[o + 2] = p[o + 2]!; continue; }
    const a = soft.data[i]!;
    if (a <= 0) continue;
    for (let c = 0; c < 3; c++) d[o + c] = Math.round(d[o + c]! + a * (p[o + c]! - d[o + c]!));
  }
}

/**
 * Decode → faces (with fit verdicts) → resize/SR to output size → masks → per-face local retouch (full,
 * light or none by fit) → exclusions composited back from the plain image → the global grade and filter
 * over the whole photo → encode. Exclusions protect regions from local retouch only: an excluded region
 * equals `look(plain)` exactly, where `look` is the same grade and filter the rest of the photo gets
 * (issue 12, class 5). See README "Stages". Runs in the calling thread (use the pool in servers).
 *
 * @param input JPEG/PNG/WebP bytes (EXIF orientation honoured).
 * @throws Error with message prefix NO_IMAGE_DECODE, IMAGE_TOO_LARGE, INVALID_OPTIONS,
 *   MODEL_CHECKSUM_MISMATCH, FACE_MODEL_LOAD or SR_FAILED.
 */
export async function retouchImage(input: Buffer, opts: RetouchOptions, config: EngineConfig = {}): Promise<RetouchResult> {
  validate(opts);
  const timings: Record<string, number> = {};
  const t0 = performance.now();
  let mark = t0;
  const lap = (stage: string): void => { const now = performance.now(); timings[stage] = Math.round(now - mark); mark = now; };
  const progress = config.onProgress ?? (() => undefined);
  const params = retouchParamsFor(opts.loraIndex);

  progress('decode', 0);
  const original = await decodeImage(input);
  lap('decode');
  progress('faces', 0);
  const analysis = await analyzeFacesRgb(original);
  lap('faces');
  progress('resize', 0);
  const resized = await resizeToOutput(original, opts.scaleFactor, opts.srModel ?? 'lsdir-compact-c3', config.modelsDir, (f) => progress('resize', f), config.sr);
  const plain = resized.image;
  lap('resize');

  progress('masks', 0);
  const faces = scaleFaceAnalysis(analysis, plain.width, plain.height);
  const anyRetouched = faces.faces.some((f) => retouchLevelOf(f) !== 'none');
  let hairMask: HairMaskMethod | 'none' = 'none';
  // the person matte keeps skin growth (neck, forehead) and hair on the person; the model sees a 256²
  // copy anyway, so the decoded original is as good an input as the SR output
  const matte = anyRetouched || (opts.exclude.hair && faces.faces.length > 0) ? await personMatte(original, plain.width, plain.height) : null;
  if (opts.exclude.hair && faces.faces.length > 0) hairMask = matte ? 'selfie' : 'heuristic';
  const exclusion = buildExclusionMasks(plain, faces, opts.exclude, matte);
  lap('masks');

  progress('retouch', 0);
  const work = localRetouch(plain, faces.faces, params, matte, (f) => progress('retouch', f));
  lap('retouch');

  if (exclusion) compositeExclusions(work, plain, exclusion);
  // the photo-wide look last, over everything (excluded regions included), measured on the plain image
  const filter = filterKindOf(opts.filterIndex, opts.filterPrompt ?? '', opts.filterStrength);
  buildGlobalLook(plain, params.grade, filter, opts.filterStrength).apply(work);
  lap('composite');

  progress('encode', 0);
  const bytes = await encodeImage(work, opts.outputFormat, opts.outputQuality ?? 100);
  lap('encode');
  timings.total = Math.round(performance.now() - t0);
  progress('done', 1);
  const faceFits: FaceFitMeta[] = faces.faces.map((f) => ({
    verdict: f.fit?.verdict ?? 'good',
    score: f.fit?.score ?? 1,
    retouch: retouchLevelOf(f),
    pass: f.fit?.pass ?? 'whole',
    rollDeg: f.fit?.rollDeg ?? 0,
    box: { x: Math.round(f.box.x), y: Math.round(f.box.y), width: Math.round(f.box.width), height: Math.round(f.box.height) },
  }));
  return {
    bytes,
    format: opts.outputFormat,
    width: work.width,
    height: work.height,
    meta: {
      faces: faces.faces.length, srModel: resized.srModel, fallback: resized.fallback, hairMask, timingsMs: timings, faceFits, exclusions: 'local-only',
      ...(resized.stats ? { sr: { inputWidth: original.width, inputHeight: original.height, ...resized.stats } } : {}),
    },
  };
}
