import type { Point } from '../face/face-regions';

/** A single-channel float image (masks are 0..1; also used for colour planes 0..255). Row-major. */
export interface Plane {
  data: Float32Array;
  width: number;
  height: number;
}

export function createPlane(width: number, height: number, fill = 0): Plane {
  const data = new Float32Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { data, width, height };
}

/**
 * Rasterises a closed polygon with a scanline even-odd fill, sampling pixel centres, so the result is
 * hard-edged (exactly 0 or `value`) — exclusion masks rely on that. `mode` 'max' unions, 'min0' cuts
 * the polygon out (sets covered pixels to 0). `offset` shifts polygon coordinates (for ROI crops).
 */
export function fillPolygon(plane: Plane, poly: readonly Point[], value = 1, mode: 'max' | 'cut' = 'max', offset: Point = [0, 0]): void {
  const n = poly.length;
  if (n < 3) return;
  const { width, height, data } = plane;
  let minY = Infinity, maxY = -Infinity;
  for (const p of poly) { minY = Math.min(minY, p[1] - offset[1]); maxY = Math.max(maxY, p[1] - offset[1]); }
  const y0 = Math.max(0, Math.floor(minY)), y1 = Math.min(height - 1, Math.ceil(maxY));
  const xs: number[] = [];
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5;
    xs.length = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const a = poly[i]!, b = poly[j]!;
      const ay = a[1] - offset[1], by = b[1] - offset[1];
      if ((ay > cy) !== (by > cy)) {
        const ax = a[0] - offset[0], bx = b[0] - offset[0];
        xs.push(ax + ((cy - ay) / (by - ay)) * (bx - ax));
      }
    }
    xs.sort((p, q) => p - q);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      // pixel x is inside when its centre x+0.5 lies in [xa, xb)
      const xa = Math.max(0, Math.ceil(xs[k]! - 0.5)), xb = Math.min(width - 1, Math.ceil(xs[k + 1]! - 0.5) - 1);
      const row = y * width;
      for (let x = xa; x <= xb; x++) {
        const idx = row + x;
        if (mode === 'max') { if (data[idx]! < value) data[idx] = value; } else data[idx] = 0;
      }
    }
  }
}

/**
 * Running-sum box blur along rows then columns (edges clamped). O(N) per pass whatever the radius.
 * The column pass walks rows with one accumulator per column instead of striding down each column
 * (about 1.3× faster measured on a 640×763 ROI).
 */
function boxBlurPass(src: Float32Array, dst: Float32Array, width: number, height: number, r: number, tmp: Float32Array): void {
  const norm = 1 / (2 * r + 1);
  const last = width - 1;
  // horizontal: src -> tmp (Float64 accumulator: long running sums in float32 drift visibly)
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let acc = 0;
    for (let k = -r; k <= r; k++) acc += src[row + (k < 0 ? 0 : k > last ? last : k)]!;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = acc * norm;
      const xa = x + r + 1, xs = x - r;
      acc += src[row + (xa > last ? last : xa)]! - src[row + (xs < 0 ? 0 : xs)]!;
    }
  }
  // vertical: tmp -> dst, row-major with per-column accumulators
  const acc = new Float64Array(width);
  const lastRow = height - 1;
  for (let k = -r; k <= r; k++) {
    const row = (k < 0 ? 0 : k > lastRow ? lastRow : k) * width;
    for (let x = 0; x < width; x++) acc[x]! += tmp[row + x]!;
  }
  for (let y = 0; y < height; y++) {
    const out = y * width;
    const ya = y + r + 1, ys = y - r;
    const addRow = (ya > lastRow ? lastRow : ya) * width, subRow = (ys < 0 ? 0 : ys) * width;
    for (let x = 0; x < width; x++) {
      dst[out + x] = acc[x]! * norm;
      acc[x]! += tmp[addRow + x]! - tmp[subRow + x]!;
    }
  }
}

/** Box filter (mean over a (2r+1)² window) — the building block of the guided filter. */
export function boxFilter(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const out = new Float32Array(src.length);
  if (r < 1) { out.set(src); return out; }
  boxBlurPass(src, out, width, height, Math.round(r), new Float32Array(src.length));
  return out;
}

/** Gaussian approximation by three box passes (sigma in pixels). Returns a new array. */
export function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  const out = new Float32Array(src);
  if (sigma < 0.5) return out;
  // box radius giving the requested sigma after 3 passes: sigma² = 3 · ((2r+1)² − 1) / 12
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  const tmp = new Float32Array(src.length);
  const buf = new Float32Array(src.length);
  boxBlurPass(out, buf, width, height, r, tmp);
  boxBlurPass(buf, out, width, height, r, tmp);
  boxBlurPass(out, buf, width, height, r, tmp);
  out.set(buf);
  return out;
}

/** Binary dilation by about `r` pixels (blur then threshold); values become 0 or 1. */
export function dilate(plane: Plane, r: number): Plane {
  if (r < 1) return { ...plane, data: new Float32Array(plane.data) };
  const b = boxFilter(plane.data, plane.width, plane.height, r);
  for (let i = 0; i < b.length; i++) b[i] = b[i]! > 1e-3 ? 1 : 0;
  return { data: b, width: plane.width, height: plane.height };
}

/**
 * Soft mask that is exactly 1 wherever `hard` is 1 and falls off smoothly OUTSIDE it over ~`radius` px.
 * Used for exclusions: the polygon interior must stay bit-exact, so feathering may only widen it.
 */
export function featherOutside(hard: Plane, radius: number): Plane {
  if (radius < 1) return { ...hard, data: new Float32Array(hard.data) };
  const { width, height } = hard;
  // work only on the bounding box of the hard region plus the blurs' reach (masks are usually small)
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (hard.data[row + x]! >= 1) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
    }
  }
  const out = createPlane(width, height);
  if (x1 < 0) return out;
  const rb = Math.max(1, Math.round((Math.sqrt(radius * radius + 1) - 1) / 2));
  const reach = Math.round(radius * 0.5) + 3 * rb + 2;
  x0 = Math.max(0, x0 - reach); y0 = Math.max(0, y0 - reach);
  x1 = Math.min(width - 1, x1 + reach); y1 = Math.min(height - 1, y1 + reach);
  const cw = x1 - x0 + 1, ch = y1 - y0 + 1;
  const crop = createPlane(cw, ch);
  for (let y = 0; y < ch; y++) crop.data.set(hard.data.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + cw), y * cw);
  const grown = dilate(crop, radius * 0.5);
  const soft = gaussianBlur(grown.data, cw, ch, radius * 0.5);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const i = (y0 + y) * width + x0 + x;
      out.data[i] = hard.data[i]! >= 1 ? 1 : Math.min(1, soft[y * cw + x]!);
    }
  }
  return out;
}

/** Feathered mask (both sides of the edge), e.g. for the skin region. */
export function feather(hard: Plane, sigma: number): Plane {
  return { data: gaussianBlur(hard.data, hard.width, hard.height, sigma), width: hard.width, height: hard.height };
}

/** Rasterises polygons into a new soft mask of any size: hard fill, then Gaussian feather of `sigma` px. */
export function rasterizeMask(width: number, height: number, polys: ReadonlyArray<readonly Point[]>, sigma = 0): Plane {
  const p = createPlane(width, height);
  for (const poly of polys) fillPolygon(p, poly);
  return sigma > 0 ? feather(p, sigma) : p;
}

/**
 * Sobel gradient magnitude of a w×h plane (8-bit levels; |∇| × 4 for a unit ramp), on interior pixels
 * (the one-pixel border stays 0). With `mask`, only where mask > 0 (the rest stays 0).
 */
export function sobelMagnitude(y: Float32Array, w: number, h: number, mask?: Plane | null): Float32Array {
  const g = new Float32Array(w * h);
  for (let r = 1; r < h - 1; r++) {
    for (let c = 1; c < w - 1; c++) {
      const i = r * w + c;
      if (mask && mask.data[i]! <= 0) continue;
      const gx = y[i - w + 1]! + 2 * y[i + 1]! + y[i + w + 1]! - y[i - w - 1]! - 2 * y[i - 1]! - y[i + w - 1]!;
      const gy = y[i + w - 1]! + 2 * y[i + w]! + y[i + w + 1]! - y[i - w - 1]! - 2 * y[i - w]! - y[i - w + 1]!;
      g[i] = Math.hypot(gx, gy);
    }
  }
  return g;
}

/**
 * Area-average downsampling of planes of one size (w×h) to ow×oh (ow ≤ w, oh ≤ h): every source pixel
 * adds to the output pixel it falls in, each output pixel is the mean of its pixels (a box filter, as the
 * hair mask's working copy does). @returns new planes in the same order.
 */
export function areaDownsample(planes: readonly Float32Array[], w: number, h: number, ow: number, oh: number): Float32Array<ArrayBuffer>[] {
  const sx = ow / w, sy = oh / h;
  const out = planes.map(() => new Float32Array(ow * oh));
  const cnt = new Float32Array(ow * oh);
  for (let y = 0; y < h; y++) {
    const row = Math.min(oh - 1, Math.floor(y * sy)) * ow;
    for (let x = 0; x < w; x++) {
      const k = row + Math.min(ow - 1, Math.floor(x * sx)), i = y * w + x;
      cnt[k] = cnt[k]! + 1;
      for (let p = 0; p < planes.length; p++) out[p]![k] = out[p]![k]! + planes[p]![i]!;
    }
  }
  for (const o of out) for (let k = 0; k < o.length; k++) o[k] = o[k]! / Math.max(1, cnt[k]!);
  return out;
}
