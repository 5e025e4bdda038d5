import type { DetectedFace } from '../face/face-analysis';
import type { Point } from '../face/face-regions';
import type { RgbImage } from '../io/image-io';
import { boxFilter, createPlane, dilate, fillPolygon, type Plane } from './mask-raster';

/** Which hair matte ran: the selfie person matte, or the colour-only variant (model missing/failed). */
export type HairMaskMethod = 'selfie' | 'heuristic';

/** Person-matte values at or below LO are background, at or above HI fully hair (soft ramp in between). */
const MATTE_LO = 0.3, MATTE_HI = 0.7;
/** Long side (px) of the working copy the regions are found on; the matte itself is 256² anyway. */
const WORK_SIDE = 512;
/**
 * …but the short side never below this (px): a 3:1 group photo at 512 px wide left 178 px of height and
 * faces 40–60 px wide, and straight 4-pixel steps of the working mask became straight 12-pixel edges
 * through hair at full size (7 such runs in the constructed group of four; 4 at 300 px).
 */
const WORK_SHORT = 300;
/** Extra geodesic cost per RGB level of colour step between neighbours (working resolution). */
const EDGE_COST = 0.2;

/**
 * Hair mask at the image size (union over faces), 0..1 with hard 1 in the confident interior.
 * See {@link buildHairMasks} for the method.
 */
export function buildHairMask(img: RgbImage, faces: readonly DetectedFace[], matte?: Plane | null): Plane {
  const out = createPlane(img.width, img.height);
  const regions = hairRegions(img, faces, matte);
  if (regions) regions.keeps.forEach((keep, f) => render(regions, keep, f, img, matte, out));
  return out;
}

type Rgb = [number, number, number];

interface Work {
  w: number; h: number; s: number;
  rgb: Float32Array; // interleaved, working resolution
  person: Float32Array; // 0..1 matte (all 1 without a matte)
}

function downsample(img: RgbImage, matte: Plane | null | undefined): Work {
  const s = Math.min(1, Math.max(WORK_SIDE / Math.max(img.width, img.height), WORK_SHORT / Math.min(img.width, img.height)));
  const w = Math.max(1, Math.round(img.width * s)), h = Math.max(1, Math.round(img.height * s));
  const rgb = new Float32Array(w * h * 3), cnt = new Float32Array(w * h), person = new Float32Array(w * h);
  // area average: every source pixel adds to the working pixel it falls in
  for (let y = 0; y < img.height; y++) {
    const wy = Math.min(h - 1, Math.floor(y * s));
    for (let x = 0; x < img.width; x++) {
      const k = wy * w + Math.min(w - 1, Math.floor(x * s)), o = (y * img.width + x) * 3;
      rgb[k * 3] = rgb[k * 3]! + img.data[o]!; rgb[k * 3 + 1] = rgb[k * 3 + 1]! + img.data[o + 1]!; rgb[k * 3 + 2] = rgb[k * 3 + 2]! + img.data[o + 2]!;
      cnt[k] = cnt[k]! + 1;
      person[k] = person[k]! + (matte ? matte.data[y * img.width + x]! : 1);
    }
  }
  for (let k = 0; k < w * h; k++) {
    const c = Math.max(1, cnt[k]!);
    rgb[k * 3] = rgb[k * 3]! / c; rgb[k * 3 + 1] = rgb[k * 3 + 1]! / c; rgb[k * 3 + 2] = rgb[k * 3 + 2]! / c;
    person[k] = person[k]! / c;
  }
  return { w, h, s, rgb, person };
}

const colourAt = (wk: Work, k: number): Rgb => [wk.rgb[k * 3]!, wk.rgb[k * 3 + 1]!, wk.rgb[k * 3 + 2]!];
const dist = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function medianColour(samples: Rgb[]): Rgb {
  return [median(samples.map((c) => c[0])), median(samples.map((c) => c[1])), median(samples.map((c) => c[2]))];
}

/** Per-face geometry and colour models at working resolution. */
interface FaceModel {
  cut: Uint8Array; // oval grown by 2 % of the face width, eyes, brows: the head seed, never hair
  skin: Rgb;
  hair: Rgb | null;
  hairTol: number;
  clothes: Rgb | null;
  torso: number[]; // seed pixel indices
}

function faceModel(wk: Work, face: DetectedFace, skinLike: (k: number, skin: Rgb, hair: Rgb | null) => boolean): FaceModel {
  const { w, h, s } = wk;
  const sc = (poly: readonly Point[]): Point[] => poly.map(([x, y]) => [x * s, y * s]);
  const r = face.regions;
  const oval = createPlane(w, h);
  fillPolygon(oval, sc(r.faceOval));
  const cutP = dilate(oval, 0.02 * face.box.width * s);
  for (const p of [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow]) fillPolygon(cutP, sc(p));
  const cut = new Uint8Array(w * h);
  for (let k = 0; k < w * h; k++) cut[k] = cutP.data[k]! > 0 ? 1 : 0;
  const fx = face.box.x * s, fy = face.box.y * s, fw = face.box.width * s, fh = face.box.height * s;
  const skinS: Rgb[] = [];
  for (let k = 0; k < w * h; k++) if (oval.data[k]! > 0) skinS.push(colourAt(wk, k));
  const skin = skinS.length > 0 ? medianColour(skinS) : ([0, 0, 0] as Rgb);
  // hair colour: confident person pixels right above the face (up to 0.3 face heights above the oval's
  // top, over its middle 70 %), not skin-coloured — the one place nearly every head has hair
  const hairS: Rgb[] = [];
  for (let y = Math.max(0, Math.floor(fy - 0.3 * fh)); y < Math.min(h, Math.ceil(fy + 0.1 * fh)); y++) {
    for (let x = Math.max(0, Math.floor(fx + 0.15 * fw)); x < Math.min(w, Math.ceil(fx + 0.85 * fw)); x++) {
      const k = y * w + x;
      if (cut[k] || wk.person[k]! < 0.95) continue;
      const c = colourAt(wk, k);
      if (dist(c, skin) > 45) hairS.push(c);
    }
  }
  const hair = hairS.length >= 8 ? medianColour(hairS) : null;
  const hairTol = hair ? Math.min(110, Math.max(45, 2.5 * 1.48 * median(hairS.map((c) => dist(c, hair))))) : 0;
  // clothes: the chest below the chin, the middle 70 % of the face width, where its colour is not the
  // hair's (long hair over a top of the same colour cannot be told apart, and then is not: everything
  // hair-coloured and connected to the head counts as hair, which under local-only exclusions is harmless)
  const torso: number[] = [];
  const clothesS: Rgb[] = [];
  const chin = fy + fh;
  for (let y = Math.max(0, Math.floor(chin + 0.35 * fh)); y < Math.min(h, Math.ceil(chin + 1.1 * fh)); y++) {
    for (let x = Math.max(0, Math.floor(fx + 0.15 * fw)); x < Math.min(w, Math.ceil(fx + 0.85 * fw)); x++) {
      const k = y * w + x;
      if (wk.person[k]! < 0.5 || skinLike(k, skin, hair)) continue;
      const c = colourAt(wk, k);
      if (hair && dist(c, hair) < Math.max(40, 0.5 * hairTol)) continue;
      torso.push(k);
      clothesS.push(c);
    }
  }
  const enough = clothesS.length >= 12;
  return { cut, skin, hair, hairTol, clothes: enough ? medianColour(clothesS) : null, torso: enough ? torso : [] };
}

/** Binary min-heap of (cost, pixel) pairs for Dijkstra. */
class Heap {
  private c: number[] = [];
  private p: number[] = [];
  get size(): number { return this.c.length; }
  push(cost: number, px: number): void {
    const c = this.c, p = this.p;
    let i = c.length;
    c.push(cost); p.push(px);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (c[up]! <= cost) break;
      c[i] = c[up]!; p[i] = p[up]!; i = up;
    }
    c[i] = cost; p[i] = px;
  }
  pop(): [number, number] {
    const c = this.c, p = this.p;
    const top: [number, number] = [c[0]!, p[0]!];
    const lc = c.pop()!, lp = p.pop()!;
    if (c.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i, mc = lc;
        if (l < c.length && c[l]! < mc) { m = l; mc = c[l]!; }
        if (r < c.length && c[r]! < mc) m = r;
        if (m === i) break;
        c[i] = c[m]!; p[i] = p[m]!; i = m;
      }
      c[i] = lc; p[i] = lp;
    }
    return top;
  }
}

/**
 * One hair mask per face (same order as `faces`), each at the image size, 0..1.
 *
 * Method (issue 12, class 1): on a working copy ≤ 512 px, the person region (matte ≥ 0.3; without a
 * matte, every pixel not nearer the border's colour than to a face's hair or skin) is divided between the people by a
 * geodesic Voronoi partition (GeoS: Criminisi, Sharp & Blake, ECCV 2008): every person is seeded at their
 * head (face oval grown by 2 %, eyes, brows) and chest, and every pixel goes to the seed it reaches at the
 * least cost, where a step costs its length plus 0.2 per RGB level of colour change — so the border
 * between two people follows the colour edge between one's hair and the other's jacket. Within a person's
 * own region, hair = the pixels connected to their head that are neither skin-coloured (face, neck,
 * forehead above the mesh) nor clothes-coloured (closer to the chest's colour than to the hair's, when the
 * two differ by more than 40 levels). No rectangle bounds anything, so no mask carries a straight window
 * edge; every mask pixel lies in its owner's part of the matte. The working-resolution mask is smoothed
 * (3×3), upsampled bilinearly and multiplied by the matte's 0.3 → 0.7 ramp at full size.
 */
export function buildHairMasks(img: RgbImage, faces: readonly DetectedFace[], matte?: Plane | null): Plane[] {
  const regions = hairRegions(img, faces, matte);
  if (!regions) return [];
  return regions.keeps.map((keep, f) => render(regions, keep, f, img, matte, createPlane(img.width, img.height)));
}

interface HairRegions { w: number; h: number; s: number; label: Int32Array; keeps: Float32Array[] }

/** The per-face hair regions at working resolution (smoothed 0..1) and the owner labels; null without faces. */
function hairRegions(img: RgbImage, faces: readonly DetectedFace[], matte?: Plane | null): HairRegions | null {
  if (matte && (matte.width !== img.width || matte.height !== img.height)) throw new Error('buildHairMask: matte size differs from the image');
  if (faces.length === 0) return null;
  const wk = downsample(img, matte);
  const { w, h } = wk;
  const n = w * h;
  // a pixel is skin-coloured for a face when clearly nearer its skin than its hair (decided on a
  // smoothed map later so hair highlights leave no holes)
  const skinLikeRaw = (k: number, skin: Rgb, hair: Rgb | null): boolean => {
    const c = colourAt(wk, k);
    const ds = dist(c, skin);
    return hair ? ds < 0.6 * dist(c, hair) && ds < 60 : ds < 30;
  };
  const models = faces.map((f) => faceModel(wk, f, skinLikeRaw));
  if (!matte) {
    // no person matte: the backdrop is the border's colour; a pixel nearer to it than to every face's
    // hair and skin is background (the colour heuristic the selfie model replaced, decision 007)
    const border: Rgb[] = [];
    for (let x = 0; x < w; x += 2) { border.push(colourAt(wk, x), colourAt(wk, (h - 1) * w + x)); }
    for (let y = 0; y < h; y += 2) { border.push(colourAt(wk, y * w), colourAt(wk, y * w + w - 1)); }
    const bg = medianColour(border);
    for (let k = 0; k < n; k++) {
      const c = colourAt(wk, k);
      let near = Infinity;
      for (const m of models) near = Math.min(near, dist(c, m.skin), m.hair ? dist(c, m.hair) : Infinity);
      wk.person[k] = dist(c, bg) < 0.9 * near ? 0 : 1;
    }
    for (const m of models) for (let k = 0; k < n; k++) if (m.cut[k]) wk.person[k] = 1;
  }
  const skinRaw = new Float32Array(n);
  for (let k = 0; k < n; k++) for (const m of models) if (skinLikeRaw(k, m.skin, m.hair)) { skinRaw[k] = 1; break; }
  const skinLike = boxFilter(skinRaw, w, h, 1);
  const isSkin = (k: number): boolean => skinLike[k]! > 0.5;
  // heads may cross skin (the forehead above the mesh's oval, ears, the neck) to reach the hair beyond
  // it; chests and the background may not, and skin is never hair
  const passable = (k: number, head: boolean): boolean => wk.person[k]! >= MATTE_LO && (head || !isSkin(k));

  // geodesic Voronoi: labels 2f (head of face f), 2f+1 (its chest)
  const label = new Int32Array(n).fill(-1);
  const cost = new Float32Array(n).fill(Infinity);
  const heap = new Heap();
  const seed = (k: number, l: number): void => { if (cost[k]! > 0) { cost[k] = 0; label[k] = l; heap.push(0, k); } };
  models.forEach((m, f) => {
    for (let k = 0; k < n; k++) if (m.cut[k]) seed(k, 2 * f);
  });
  // each chest seed spreads over its whole clothing (connected pixels of the clothes' colour), so a
  // jacket next to someone else's hair is seeded all the way to that hair's edge
  models.forEach((m, f) => {
    if (!m.clothes) return;
    const tol = Math.min(35, 0.6 * (m.hair ? dist(m.clothes, m.hair) : 60));
    const stack = m.torso.filter((k) => label[k] === -1);
    for (const k of stack) seed(k, 2 * f + 1);
    while (stack.length > 0) {
      const k = stack.pop()!;
      const x = k % w, y = (k - x) / w;
      for (const q of [x > 0 ? k - 1 : -1, x < w - 1 ? k + 1 : -1, y > 0 ? k - w : -1, y < h - 1 ? k + w : -1]) {
        if (q < 0 || label[q] !== -1 || wk.person[q]! < MATTE_LO || isSkin(q)) continue;
        const c = colourAt(wk, q), dc = dist(c, m.clothes);
        if (dc > tol || (m.hair && dc > 0.8 * dist(c, m.hair))) continue;
        seed(q, 2 * f + 1);
        stack.push(q);
      }
    }
  });

  // colour steps are measured on a lightly smoothed copy: strand texture inside hair should cost little,
  // the border between hair and a jacket a lot
  const sm = new Float32Array(n * 3);
  for (let ch = 0; ch < 3; ch++) {
    const plane = new Float32Array(n);
    for (let k = 0; k < n; k++) plane[k] = wk.rgb[k * 3 + ch]!;
    const b = boxFilter(boxFilter(plane, w, h, 1), w, h, 1);
    for (let k = 0; k < n; k++) sm[k * 3 + ch] = b[k]!;
  }
  const smAt = (k: number): Rgb => [sm[k * 3]!, sm[k * 3 + 1]!, sm[k * 3 + 2]!];
  while (heap.size > 0) {
    const [c0, k] = heap.pop();
    if (c0 > cost[k]!) continue;
    const x = k % w, y = (k - x) / w;
    const ck = smAt(k);

    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = ny * w + nx;
        if (cost[q] === 0 || !passable(q, label[k]! >= 0 && label[k]! % 2 === 0)) continue;
        const step = (dx && dy ? Math.SQRT2 : 1) + EDGE_COST * dist(ck, smAt(q));
        const nc = c0 + step;
        if (nc < cost[q]!) { cost[q] = nc; label[q] = label[k]!; heap.push(nc, q); }
      }
    }
  }

  const keeps = models.map((m, f) => {
    // hair candidates of face f: its head's region, outside the cut, not skin, hair-coloured (within the
    // hair samples' spread) and not nearer the clothes' colour than the hair's
    const cand = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      if (label[k] !== 2 * f || m.cut[k] || isSkin(k)) continue;
      if (m.hair) {
        const c = colourAt(wk, k);
        const dh = dist(c, m.hair);
        if (dh > m.hairTol || (m.clothes && dist(c, m.clothes) < 0.9 * dh)) continue;
      }
      cand[k] = 1;
    }
    // connected to the head: flood from the cut through the head's own skin (forehead, ears) and the
    // candidates; only candidates are kept
    const keep = new Float32Array(n);
    const seen = new Uint8Array(n);
    const stack: number[] = [];
    for (let k = 0; k < n; k++) if (m.cut[k]) { seen[k] = 1; stack.push(k); }
    while (stack.length > 0) {
      const k = stack.pop()!;
      const x = k % w, y = (k - x) / w;
      for (const q of [x > 0 ? k - 1 : -1, x < w - 1 ? k + 1 : -1, y > 0 ? k - w : -1, y < h - 1 ? k + w : -1]) {
        if (q < 0 || seen[q] || label[q] !== 2 * f) continue;
        if (!cand[q] && !isSkin(q)) continue;
        seen[q] = 1;
        if (cand[q]) keep[q] = 1;
        stack.push(q);
      }
    }
    return boxFilter(keep, w, h, 1);
  });
  return { w, h, s: wk.s, label, keeps };
}

/**
 * Writes face `f`'s hair into `out` (max), at the image size: the working-resolution region sampled
 * bilinearly (0.35 → 0.65 ramps 0 → 1), cut hard where the working pixel belongs to someone else, times
 * the matte's 0.3 → 0.7 ramp. Only the region's bounding box is visited.
 */
function render(r: HairRegions, keep: Float32Array, f: number, img: RgbImage, matte: Plane | null | undefined, out: Plane): Plane {
  const { w, h, s, label } = r;
  let bx0 = w, by0 = h, bx1 = -1, by1 = -1;
  for (let k = 0; k < keep.length; k++) {
    if (keep[k]! <= 0) continue;
    const x = k % w, y = (k - x) / w;
    if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; if (y < by0) by0 = y; if (y > by1) by1 = y;
  }
  if (bx1 < 0) return out;
  const W = img.width, H = img.height, fx = w / W, fy = h / H;
  const X0 = Math.max(0, Math.floor((bx0 - 1) / fx)), X1 = Math.min(W - 1, Math.ceil((bx1 + 2) / fx));
  const Y0 = Math.max(0, Math.floor((by0 - 1) / fy)), Y1 = Math.min(H - 1, Math.ceil((by1 + 2) / fy));
  for (let y = Y0; y <= Y1; y++) {
    const gy = Math.min(h - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const j0 = Math.floor(gy), j1 = Math.min(h - 1, j0 + 1), wy = gy - j0;
    const oy = Math.min(h - 1, Math.floor(y * s));
    for (let x = X0; x <= X1; x++) {
      const gx = Math.min(w - 1, Math.max(0, (x + 0.5) * fx - 0.5));
      const i0 = Math.floor(gx), i1 = Math.min(w - 1, i0 + 1), wx = gx - i0;
      const top = keep[j0 * w + i0]! + wx * (keep[j0 * w + i1]! - keep[j0 * w + i0]!);
      const bot = keep[j1 * w + i0]! + wx * (keep[j1 * w + i1]! - keep[j1 * w + i0]!);
      const v = top + wy * (bot - top);
      if (v <= 0.35) continue;
      // hard border between people: the owner at full size is the working pixel's owner
      const owner = label[oy * w + Math.min(w - 1, Math.floor(x * s))]!;
      if (owner >= 0 && Math.floor(owner / 2) !== f) continue;
      const i = y * W + x;
      const inside = v >= 0.65 ? 1 : (v - 0.35) / 0.3;
      const mv = matte ? matte.data[i]! : 1;
      const ramp = mv <= MATTE_LO ? 0 : mv >= MATTE_HI ? 1 : (mv - MATTE_LO) / (MATTE_HI - MATTE_LO);
      const val = inside * ramp;
      if (val > out.data[i]!) out.data[i] = val;
    }
  }
  return out;
}
