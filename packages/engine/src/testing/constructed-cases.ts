/**
 * Constructed test photos for the failure classes the fixtures lack (issue 12): freckles painted on a
 * fixture's cheeks, two portraits side by side, rotated copies, a skin-coloured wall behind a neck.
 * Test and eval helpers only; never used by the engine.
 */
import sharp from 'sharp';
import type { DetectedFace } from '../face/face-analysis';
import { CHEEK_POINTS } from '../face/face-regions';
import { decodeImage, type RgbImage } from '../io/image-io';

/** Small deterministic PRNG (mulberry32) so constructed photos are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The photo with fine, pixel-sized skin texture added (what a high-resolution camera resolves on older
 * skin, or its sensor noise): zero-mean grain on luma, σ = `sigma` 8-bit levels, the same on R, G and B,
 * seeded. A face measured at its full resolution sees this grain; scaled down, it averages out (issue 26).
 */
export function withSkinGrain(img: RgbImage, sigma: number, seed = 1): RgbImage {
  const rand = rng(seed);
  const d = new Uint8Array(img.data);
  for (let i = 0; i < d.length; i += 3) {
    // sum of four uniforms: close to Gaussian, variance 4/12, scaled to σ
    const g = (rand() + rand() + rand() + rand() - 2) * Math.sqrt(3) * sigma;
    for (let c = 0; c < 3; c++) d[i + c] = Math.max(0, Math.min(255, Math.round(d[i + c]! + g)));
  }
  return { width: img.width, height: img.height, data: d };
}

/**
 * Paints freckles on both cheeks and the nose bridge of `face`: soft brown dots (Gaussian, sigma 1–2 px
 * × face width / 250) darkening luma by 14–26 levels and warming the hue, about one per (0.028 fw)².
 * Returns a new image and the freckle centres (px), for measuring how much of their contrast survives.
 */
export function addFreckles(img: RgbImage, face: DetectedFace, seed = 7): { image: RgbImage; centres: Array<[number, number]> } {
  const out = new Uint8Array(img.data);
  const fw = face.box.width;
  const rand = rng(seed);
  const centres: Array<[number, number]> = [];
  const spacing = 0.028 * fw;
  const anchors = [face.mesh[CHEEK_POINTS.left], face.mesh[CHEEK_POINTS.right]].filter((p): p is [number, number, number] => !!p);
  for (const a of anchors) {
    const rad = 0.08 * fw;
    const count = Math.round((Math.PI * rad * rad) / (spacing * spacing));
    for (let k = 0; k < count; k++) {
      const t = rand() * 2 * Math.PI, r = rad * Math.sqrt(rand());
      centres.push([a[0] + r * Math.cos(t), a[1] + r * Math.sin(t)]);
    }
  }
  for (const [cx, cy] of centres) {
    const sigma = (1 + rand()) * Math.max(1, fw / 250);
    const depth = 14 + 12 * rand();
    const reach = Math.ceil(3 * sigma);
    for (let y = Math.max(0, Math.floor(cy - reach)); y <= Math.min(img.height - 1, Math.ceil(cy + reach)); y++) {
      for (let x = Math.max(0, Math.floor(cx - reach)); x <= Math.min(img.width - 1, Math.ceil(cx + reach)); x++) {
        const g = Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * sigma * sigma));
        const o = (y * img.width + x) * 3;
        // brown: R drops least, B most
        out[o] = Math.max(0, Math.round(out[o]! - 0.75 * depth * g));
        out[o + 1] = Math.max(0, Math.round(out[o + 1]! - 1.05 * depth * g));
        out[o + 2] = Math.max(0, Math.round(out[o + 2]! - 1.35 * depth * g));
      }
    }
  }
  return { image: { data: out, width: img.width, height: img.height }, centres };
}

/**
 * Mean freckle contrast: for each centre, the luma of a ring 3–5 sigma away minus the luma at the centre
 * (levels), averaged. Compare after ÷ before to get the share of freckle contrast kept.
 */
export function freckleContrast(img: RgbImage, centres: ReadonlyArray<[number, number]>, ringPx: number): number {
  const Y = (x: number, y: number): number => {
    const o = (Math.round(y) * img.width + Math.round(x)) * 3;
    return 0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]!;
  };
  let s = 0;
  for (const [cx, cy] of centres) {
    let ring = 0;
    for (let k = 0; k < 8; k++) ring += Y(cx + ringPx * Math.cos((k * Math.PI) / 4), cy + ringPx * Math.sin((k * Math.PI) / 4));
    s += ring / 8 - Y(cx, cy);
  }
  return s / Math.max(1, centres.length);
}

/** Encodes raw RGB as PNG. */
export function pngOf(img: RgbImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).png().toBuffer();
}

/** A copy of a photo rotated by `deg` degrees (clockwise), the new corners filled with mid grey; PNG. */
export function rotatedCopy(bytes: Buffer, deg: number): Promise<Buffer> {
  return sharp(bytes).rotate(deg, { background: '#808080' }).png().toBuffer();
}

/**
 * Two photos side by side with no gap, both resized to `height` px: the seam column is the true border
 * between the two people, which no one's mask may cross. Returns the PNG and the seam's x.
 */
export async function sideBySide(left: Buffer, right: Buffer, height: number): Promise<{ png: Buffer; seam: number; width: number }> {
  const a = await sharp(left).rotate().resize({ height }).png().toBuffer();
  const b = await sharp(right).rotate().resize({ height }).png().toBuffer();
  const wa = (await sharp(a).metadata()).width!, wb = (await sharp(b).metadata()).width!;
  const png = await sharp({ create: { width: wa + wb, height, channels: 3, background: '#808080' } })
    .composite([{ input: a, left: 0, top: 0 }, { input: b, left: wa, top: 0 }]).png().toBuffer();
  return { png, seam: wa, width: wa + wb };
}

/**
 * Recolours dark, bluish clothing (the navy suit in the Obama fixtures) to a red jacket of the same
 * shading: pixels with luma < 90 and blue above red by 4+ levels (or luma < 35), below `belowY` px. Raw RGB in, new image out.
 * A red jacket next to red hair is the neighbour that made hair masks leak (issue 12, class 1).
 */
export function redJacket(img: RgbImage, belowY: number): RgbImage {
  const out = new Uint8Array(img.data);
  for (let y = Math.max(0, Math.round(belowY)); y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const o = (y * img.width + x) * 3;
      const r = out[o]!, g = out[o + 1]!, b = out[o + 2]!;
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      if (l >= 90 || (b < r + 4 && l >= 35)) continue;
      const k = Math.min(1, (90 - l) / 20);
      const t = Math.min(255, 40 + 2.6 * l);
      out[o] = Math.round(r + k * (t - r));
      out[o + 1] = Math.round(g + k * (0.25 * t - g));
      out[o + 2] = Math.round(b + k * (0.2 * t - b));
    }
  }
  return { data: out, width: img.width, height: img.height };
}

/**
 * Straight mask edges that the photo does not explain: axis-aligned runs of ≥ `minRun` boundary pixels
 * (mask ≥ 0.5 on one side, < 0.5 on the next pixel across) where the person continues across the edge
 * (matte ≥ 0.5 on the outside) and the colour barely changes (RGB distance < `maxStep`). A search
 * window's edge cutting through hair or clothing is exactly such a run; a mask edge that follows the
 * matte, a colour edge or the contour of one of `faces` is not. Returns the runs (x, y, length, orientation).
 */
export function unexplainedStraightRuns(mask: Float32Array, img: RgbImage, matte: Float32Array, faces: readonly DetectedFace[] = [], minRun = 12, maxStep = 24): Array<{ x: number; y: number; length: number; dir: 'h' | 'v' }> {
  const { width: W, height: H, data } = img;
  const runs: Array<{ x: number; y: number; length: number; dir: 'h' | 'v' }> = [];
  // the face's own contour (oval grown by 3 % of its width) is a content edge, however straight its
  // polygon's segments are
  const face = new Uint8Array(W * H);
  for (const f of faces) {
    const g = 0.03 * f.box.width, cx = f.box.x + f.box.width / 2, cy = f.box.y + f.box.height / 2;
    const poly = f.regions.faceOval.map(([x, y]): [number, number] => {
      const d = Math.hypot(x - cx, y - cy) || 1;
      return [x + ((x - cx) / d) * g, y + ((y - cy) / d) * g];
    });
    for (let y = 0; y < H; y++) {
      const xs: number[] = [];
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const a = poly[i]!, b = poly[j]!;
        if ((a[1] > y + 0.5) !== (b[1] > y + 0.5)) xs.push(a[0] + ((y + 0.5 - a[1]) / (b[1] - a[1])) * (b[0] - a[0]));
      }
      xs.sort((p, q) => p - q);
      for (let k = 0; k + 1 < xs.length; k += 2) for (let x = Math.max(0, Math.ceil(xs[k]! - 0.5)); x < Math.min(W, Math.ceil(xs[k + 1]! - 0.5)); x++) face[y * W + x] = 1;
    }
  }
  const cut = (i: number, j: number): boolean => {
    if (face[i] || face[j]) return false;
    if (!(mask[i]! >= 0.5 && mask[j]! < 0.5) && !(mask[j]! >= 0.5 && mask[i]! < 0.5)) return false;
    const out = mask[i]! < 0.5 ? i : j;
    if (matte[out]! < 0.5) return false;
    const a = i * 3, b = j * 3;
    return Math.hypot(data[a]! - data[b]!, data[a + 1]! - data[b + 1]!, data[a + 2]! - data[b + 2]!) < maxStep;
  };
  // horizontal edges (between rows y and y+1), scanned along x
  for (let y = 0; y + 1 < H; y++) {
    let len = 0;
    for (let x = 0; x <= W; x++) {
      if (x < W && cut(y * W + x, (y + 1) * W + x)) len++;
      else { if (len >= minRun) runs.push({ x: x - len, y, length: len, dir: 'h' }); len = 0; }
    }
  }
  // vertical edges (between columns x and x+1), scanned along y
  for (let x = 0; x + 1 < W; x++) {
    let len = 0;
    for (let y = 0; y <= H; y++) {
      if (y < H && cut(y * W + x, y * W + x + 1)) len++;
      else { if (len >= minRun) runs.push({ x, y: y - len, length: len, dir: 'v' }); len = 0; }
    }
  }
  return runs;
}

/**
 * Paints the backdrop (person matte < 0.1) a skin colour with a fine noise texture, so that a skin mask
 * grown by colour alone would walk off the neck into the wall. `skin` is the wall's mean RGB.
 */
export function skinColouredWall(img: RgbImage, matte: Float32Array, skin: [number, number, number], seed = 3): RgbImage {
  const out = new Uint8Array(img.data);
  const rand = rng(seed);
  for (let i = 0; i < matte.length; i++) {
    if (matte[i]! >= 0.1) continue;
    const n = (rand() - 0.5) * 16;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(skin[c]! + n)));
  }
  return { data: out, width: img.width, height: img.height };
}

/**
 * Pixels below a face's jaw that are not skin by a test independent of the engine's skin mask: under
 * the face oval's lowest point (to 0.9 face heights below it, 0.6 face widths either side), and either backdrop (matte
 * < 0.1) or, when `alsoColour`, far from the face's own median colour (RGB distance > 60). Hard 0/1.
 */
export function nonSkinBelowJaw(img: RgbImage, face: DetectedFace, matte: Float32Array, alsoColour = true): Float32Array {
  const W = img.width, H = img.height;
  const out = new Float32Array(W * H);
  const oval = face.regions.faceOval;
  let bottom = -Infinity;
  for (const [, y] of oval) bottom = Math.max(bottom, y);
  const inOval = new Uint8Array(W * H);
  const poly = oval;
  for (let y = 0; y < H; y++) {
    const xs: number[] = [];
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const a = poly[i]!, b = poly[j]!;
      if ((a[1] > y + 0.5) !== (b[1] > y + 0.5)) xs.push(a[0] + ((y + 0.5 - a[1]) / (b[1] - a[1])) * (b[0] - a[0]));
    }
    xs.sort((p, q) => p - q);
    for (let k = 0; k + 1 < xs.length; k += 2) for (let x = Math.max(0, Math.ceil(xs[k]! - 0.5)); x < Math.min(W, Math.ceil(xs[k + 1]! - 0.5)); x++) inOval[y * W + x] = 1;
  }
  const skin: number[][] = [[], [], []];
  for (let i = 0; i < W * H; i += 7) if (inOval[i]) for (let c = 0; c < 3; c++) skin[c]!.push(img.data[i * 3 + c]!);
  const med = skin.map((v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0);
  const x0 = face.box.x - 0.6 * face.box.width, x1 = face.box.x + 1.6 * face.box.width;
  for (let y = Math.max(0, Math.ceil(bottom)); y < Math.min(H, bottom + 0.9 * face.box.height); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(W, Math.ceil(x1)); x++) {
      const i = y * W + x;
      if (inOval[i]) continue;
      const o = i * 3;
      const far = Math.hypot(img.data[o]! - med[0]!, img.data[o + 1]! - med[1]!, img.data[o + 2]! - med[2]!) > 60;
      if (matte[i]! < 0.1 || (alsoColour && far)) out[i] = 1;
    }
  }
  return out;
}

/**
 * A group photo of four built from the fixtures (about 1500×540 px, 3:1): Obama, Rose Leslie turned 35°,
 * Adele as a child, and the half-body Obama turned −20°, heads 100–190 px wide, bottoms aligned on a
 * grey backdrop. The wide frame and the tilted heads are what made meshes miss in a real group.
 */
export async function groupOfFour(read: (name: string) => Promise<Buffer>): Promise<Buffer> {
  const parts: Array<[string, [number, number, number, number], number, number]> = [
    ['obama_910x1137.jpg', [200, 0, 560, 760], 420, 0],
    ['rose_leslie_577x880.jpg', [0, 0, 577, 760], 420, 35],
    ['gfpgan_adele_crop_512.png', [0, 0, 512, 512], 300, 0],
    ['obama3_1434x2333.jpg', [300, 100, 900, 1100], 420, -20],
  ];
  const tiles: Array<{ input: Buffer; left: number; h: number }> = [];
  let x = 0;
  for (const [name, [left, top, width, height], th, rot] of parts) {
    let buf = await sharp(await read(name)).extract({ left, top, width, height }).resize({ height: th }).png().toBuffer();
    if (rot) buf = await sharp(buf).rotate(rot, { background: '#6a6a70' }).png().toBuffer();
    const m = await sharp(buf).metadata();
    tiles.push({ input: buf, left: x, h: m.height! });
    x += m.width! - 20;
  }
  const H = Math.max(...tiles.map((t) => t.h));
  return sharp({ create: { width: x + 20, height: H, channels: 3, background: '#6a6a70' } })
    .composite(tiles.map((t) => ({ input: t.input, left: t.left, top: H - t.h }))).jpeg({ quality: 92 }).toBuffer();
}

/**
 * Rose Leslie (long red hair) and, touching her, Obama in a red jacket (his navy suit recoloured), both
 * 640 px high with no gap: the seam is the true border between the two people.
 */
export async function hairNextToRedJacket(read: (name: string) => Promise<Buffer>): Promise<{ png: Buffer; seam: number; width: number }> {
  const ob = await decodeImage(await sharp(await read('obama_910x1137.jpg')).extract({ left: 150, top: 0, width: 640, height: 1137 }).png().toBuffer());
  const red = await pngOf(redJacket(ob, 455));
  const rose = await sharp(await read('rose_leslie_577x880.jpg')).extract({ left: 40, top: 0, width: 537, height: 880 }).png().toBuffer();
  return sideBySide(rose, red, 640);
}
