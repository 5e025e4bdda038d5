/** Small colour helpers shared by the retouch and grading stages (8-bit sRGB values as floats). */

export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

export function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0 || 1)));
  return t * t * (3 - 2 * t);
}

export function clamp255(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

/** Value at quantile q (0..1) of the samples where `weight` > 0.5; histogram based, 8-bit resolution. */
export function weightedQuantiles(values: Float32Array, weight: Float32Array, qs: readonly number[]): number[] {
  const hist = new Float64Array(256);
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    if (weight[i]! > 0.5) {
      hist[Math.min(255, Math.max(0, Math.round(values[i]!)))]! += 1;
      total++;
    }
  }
  if (total === 0) return qs.map(() => 128);
  return qs.map((q) => {
    const target = q * total;
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v]!;
      if (acc >= target) return v;
    }
    return 255;
  });
}

/** sRGB (8-bit values, floats allowed) → CIELAB (D65): [L* 0..100, a*, b*]. */
export function labOf(r: number, g: number, b: number): [number, number, number] {
  const lin = (v: number): number => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const R = lin(r), G = lin(g), B = lin(b);
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const fx = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047), fy = f(0.2126 * R + 0.7152 * G + 0.0722 * B), fz = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
