/**
 * The quality evaluation behind `npm run eval` (issue 12): for one photo, per face and per retouch
 * level, the figures a customer's complaints map to — fit verdict, texture kept on the cheeks, eye and
 * brow edges kept, landmark shift, exclusion exactness under the new semantics — plus super-resolution
 * sharpness against Lanczos, and side-by-side 100 % crops. Pure functions over the engine's own API.
 */
import sharp from 'sharp';
import type { RetouchOptions } from '../engine-types';
import { analyzeFacesRgb, type DetectedFace, type FaceAnalysis } from '../face/face-analysis';
import { decodeImage, resizeRgb, type RgbImage } from '../io/image-io';
import { buildHairMask } from '../mask/hair-mask';
import { createPlane, fillPolygon, type Plane } from '../mask/mask-raster';
import { personMatte } from '../mask/person-matte';
import { buildGlobalLook } from '../retouch/color-grade';
import { filterKindOf, RETOUCH_PARAMS, retouchParamsFor } from '../retouch/retouch-params';
import { retouchImage, retouchLevelOf } from '../retouch-pipeline';
import { resizeToOutput } from '../sr/super-resolution';
import { cheekMask, eyeBrowMask, fineEnergy, landmarkShiftPct, lumaOf, maskedMad, matchFace, meanGradient, regionDeltaE } from './quality-metrics';

/** Figures for one face at one retouch level. */
export interface FaceLevelFigures {
  level: number;
  /** Local retouch the face got: full, light or none (from its fit verdict). */
  retouch: 'full' | 'light' | 'none';
  /** Cheek fine-scale (sigma 1.5 px) high-frequency energy, after ÷ before (both after the same global grade). */
  cheekHf: number;
  /** Mean Sobel gradient over eyes and brows (grown 2 px), after ÷ before. */
  eyeBrowEdges: number;
  /** Mean landmark displacement between the analyses of input and output, % of face width (NaN: face not found again). */
  landmarkShiftPct: number;
  /** Mean abs difference (levels) inside the face oval between output and look(input): how much the face changed. */
  faceMad: number;
  /** Lip colour change: mean CIE76 ΔE*ab over the lip polygons between output and look(input) (the lip tint; 0 at levels without one). */
  lipDeltaE: number;
  /** The side-by-side crop written, if any (path relative to the output folder). */
  crop?: string;
}

/** Everything measured for one face. */
export interface FaceFigures {
  index: number;
  box: { x: number; y: number; width: number; height: number };
  verdict: string;
  fitScore: number;
  pass: string;
  rollDeg: number;
  signals: Record<string, number>;
  levels: FaceLevelFigures[];
  /** Mean abs difference (levels) per excluded region vs look(plain), and its pixel count. */
  exclusionMad: Record<string, { mad: number; pixels: number }>;
}

/** The evaluation of one photo. */
export interface PhotoFigures {
  file: string;
  width: number;
  height: number;
  facesFound: number;
  faces: FaceFigures[];
  /** SR on a face-centred crop (≤ `srCrop` px): mean gradient of SR ×2 ÷ Lanczos ×2, and SR time. */
  sr?: { crop: { width: number; height: number }; model: string; gradientRatio: number; ms: number };
  ms: number;
}

export interface EvalOptions {
  /** Retouch levels (model indices) to run; default all 0..8. */
  levels?: number[];
  /** Where crops go (null: no crops). */
  outDir?: string | null;
  modelsDir?: string;
  /** Skip the SR measurement. */
  noSr?: boolean;
  /** Input side (px) of the square crop SR is measured on; default 256. */
  srCrop?: number;
  /** Called with the crop's file name and PNG bytes; the CLI writes them. */
  writeFile?: (name: string, bytes: Buffer) => Promise<void>;
}

const NO_EXCLUDE = { upperLip: false, lowerLip: false, leftEyebrow: false, rightEyebrow: false, nose: false, hair: false };

/** Options for a plain retouch at scale 1 to PNG (lossless, so pixel figures are exact). */
export function evalOptions(level: number, over: Partial<RetouchOptions> = {}): RetouchOptions {
  return { loraIndex: level, scaleFactor: 1, filterIndex: 0, filterStrength: 0.01, filterPrompt: '', exclude: NO_EXCLUDE, outputFormat: 'png', outputQuality: 100, seed: 1, ...over };
}

/** The input after the same global grade and filter a request applies (what an untouched region must equal). */
export function lookOf(plain: RgbImage, opts: RetouchOptions): RgbImage {
  const img = { data: new Uint8Array(plain.data), width: plain.width, height: plain.height };
  buildGlobalLook(plain, retouchParamsFor(opts.loraIndex).grade, filterKindOf(opts.filterIndex, opts.filterPrompt, opts.filterStrength), opts.filterStrength).apply(img);
  return img;
}

function polyMask(w: number, h: number, polys: ReadonlyArray<ReadonlyArray<readonly [number, number]>>): Plane {
  const m = createPlane(w, h);
  for (const p of polys) fillPolygon(m, p as Array<[number, number]>);
  return m;
}

/** Square 100 % crop around a face (1.6 face sizes, at most 640 px), before | after, as PNG. */
async function sideBySideCrop(before: RgbImage, after: RgbImage, face: DetectedFace): Promise<Buffer> {
  const side = Math.min(640, Math.round(1.6 * Math.max(face.box.width, face.box.height)), before.width, before.height);
  const cx = face.box.x + face.box.width / 2, cy = face.box.y + face.box.height / 2;
  const left = Math.max(0, Math.min(before.width - side, Math.round(cx - side / 2)));
  const top = Math.max(0, Math.min(before.height - side, Math.round(cy - side / 2)));
  const cut = (img: RgbImage): Promise<Buffer> => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract({ left, top, width: side, height: side }).png().toBuffer();
  return sharp({ create: { width: 2 * side + 4, height: side, channels: 3, background: '#ffffff' } })
    .composite([{ input: await cut(before), left: 0, top: 0 }, { input: await cut(after), left: side + 4, top: 0 }]).png().toBuffer();
}

function faceOvalMad(a: RgbImage, b: RgbImage, face: DetectedFace): number {
  return maskedMad(a, b, polyMask(a.width, a.height, [face.regions.faceOval])).mad;
}

/**
 * Evaluates one photo (any portrait; faces are found by the engine). Retouch runs at scale 1 to PNG for
 * every level; exclusions are checked once at level 0 (lip tint and blush) with every region excluded and
 * the fair-skin filter at 0.8. Errors from decoding propagate (`NO_IMAGE_DECODE`, `IMAGE_TOO_LARGE`).
 */
export async function evaluatePhoto(file: string, bytes: Buffer, o: EvalOptions = {}): Promise<PhotoFigures> {
  const t0 = performance.now();
  const levels = o.levels ?? RETOUCH_PARAMS.map((_, i) => i);
  const img = await decodeImage(bytes);
  const analysis: FaceAnalysis = await analyzeFacesRgb(img);
  const base = file.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  const faces: FaceFigures[] = analysis.faces.map((f, index) => ({
    index,
    box: { x: Math.round(f.box.x), y: Math.round(f.box.y), width: Math.round(f.box.width), height: Math.round(f.box.height) },
    verdict: f.fit?.verdict ?? 'good',
    fitScore: f.fit?.score ?? 1,
    pass: f.fit?.pass ?? 'whole',
    rollDeg: f.fit?.rollDeg ?? 0,
    signals: Object.fromEntries(Object.entries(f.fit?.signals ?? {}).map(([k, v]) => [k, Math.round(v * 100) / 100])),
    levels: [],
    exclusionMad: {},
  }));
  const W = img.width, H = img.height;
  const masks = analysis.faces.map((f) => ({ cheeks: cheekMask(f, W, H), eyes: eyeBrowMask(f, W, H), lips: polyMask(W, H, [f.regions.upperLip, f.regions.lowerLip]) }));
  for (const level of levels) {
    const opts = evalOptions(level);
    const res = await retouchImage(bytes, opts, { modelsDir: o.modelsDir });
    const out = await decodeImage(res.bytes);
    const ref = lookOf(img, opts);
    const yo = lumaOf(out), yr = lumaOf(ref);
    const again = analysis.faces.length > 0 ? (await analyzeFacesRgb(out)).faces : [];
    for (const [k, f] of analysis.faces.entries()) {
      const m = masks[k]!;
      const e0 = fineEnergy(yr, W, H, m.cheeks), g0 = meanGradient(yr, W, H, m.eyes);
      const twin = matchFace(f, again);
      const fig: FaceLevelFigures = {
        level,
        retouch: retouchLevelOf(f),
        cheekHf: e0 > 0 ? fineEnergy(yo, W, H, m.cheeks) / e0 : NaN,
        eyeBrowEdges: g0 > 0 ? meanGradient(yo, W, H, m.eyes) / g0 : NaN,
        landmarkShiftPct: twin ? landmarkShiftPct(f, twin) : NaN,
        faceMad: faceOvalMad(out, ref, f),
        lipDeltaE: regionDeltaE(out, ref, m.lips).mean,
      };
      if (o.outDir !== null && o.writeFile) {
        fig.crop = `${base}_face${k}_L${level}.png`;
        await o.writeFile(fig.crop, await sideBySideCrop(ref, out, f));
      }
      faces[k]!.levels.push(fig);
    }
  }
  // exclusions under the new semantics: excluded = look(plain), measured per region
  if (analysis.faces.length > 0) {
    const ex = { upperLip: true, lowerLip: true, leftEyebrow: true, rightEyebrow: true, nose: true, hair: true };
    const opts = evalOptions(0, { exclude: ex, filterIndex: 1, filterStrength: 0.8, filterPrompt: 'asle filter' });
    const res = await retouchImage(bytes, opts, { modelsDir: o.modelsDir });
    const out = await decodeImage(res.bytes);
    const ref = lookOf(img, opts);
    const matte = await personMatte(img);
    const hair = buildHairMask(img, analysis.faces, matte);
    for (const [k, f] of analysis.faces.entries()) {
      const r = f.regions;
      const regions: Record<string, Plane> = {
        upperLip: polyMask(W, H, [r.upperLip]), lowerLip: polyMask(W, H, [r.lowerLip]),
        leftEyebrow: polyMask(W, H, [r.leftEyebrow]), rightEyebrow: polyMask(W, H, [r.rightEyebrow]), nose: polyMask(W, H, [r.nose]),
      };
      if (retouchLevelOf(f) === 'none') regions.face = polyMask(W, H, [r.faceOval]);
      if (k === 0) regions.hair = hair;
      for (const [name, m] of Object.entries(regions)) faces[k]!.exclusionMad[name] = maskedMad(out, ref, m);
    }
  }
  let sr: PhotoFigures['sr'];
  if (!o.noSr) {
    const side = Math.min(o.srCrop ?? 256, W, H);
    const f = analysis.faces[0];
    const cx = f ? f.box.x + f.box.width / 2 : W / 2, cy = f ? f.box.y + f.box.height / 2 : H / 2;
    const left = Math.max(0, Math.min(W - side, Math.round(cx - side / 2))), top = Math.max(0, Math.min(H - side, Math.round(cy - side / 2)));
    const crop: RgbImage = { data: new Uint8Array(side * side * 3), width: side, height: side };
    for (let y = 0; y < side; y++) crop.data.set(img.data.subarray(((top + y) * W + left) * 3, ((top + y) * W + left + side) * 3), y * side * 3);
    const t1 = performance.now();
    const up = await resizeToOutput(crop, 2, 'lsdir-compact-c3', o.modelsDir);
    const ms = Math.round(performance.now() - t1);
    const lz = await resizeRgb(crop, 2 * side, 2 * side);
    sr = { crop: { width: side, height: side }, model: up.srModel, gradientRatio: meanGradient(lumaOf(up.image), 2 * side, 2 * side) / meanGradient(lumaOf(lz), 2 * side, 2 * side), ms };
    if (o.outDir !== null && o.writeFile) {
      const both = await sharp({ create: { width: 4 * side + 4, height: 2 * side, channels: 3, background: '#ffffff' } }).composite([
        { input: await sharp(lz.data, { raw: { width: 2 * side, height: 2 * side, channels: 3 } }).png().toBuffer(), left: 0, top: 0 },
        { input: await sharp(up.image.data, { raw: { width: 2 * side, height: 2 * side, channels: 3 } }).png().toBuffer(), left: 2 * side + 4, top: 0 },
      ]).png().toBuffer();
      await o.writeFile(`${base}_sr_lanczos-vs-sr.png`, both);
    }
  }
  return { file, width: W, height: H, facesFound: analysis.faces.length, faces, sr, ms: Math.round(performance.now() - t0) };
}
