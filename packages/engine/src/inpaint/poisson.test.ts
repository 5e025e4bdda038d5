import { describe, expect, it } from 'vitest';
import { poissonFill } from './poisson';

// A textured ramp; the hole (a disc plus a thin diagonal stroke) is filled with a copy of the same texture
// from 100 px to the left, which is darker by the ramp (50 levels). The gradient-domain step must restore
// the true brightness from the border while keeping the copied texture.
function scene(): { w: number; h: number; img: Uint8Array; truth: Uint8Array; hole: Uint8Array; nnf: Int32Array } {
  const w = 220, h = 100;
  const truth = new Uint8Array(w * h * 3), hole = new Uint8Array(w * h), nnf = new Int32Array(w * h).fill(-1);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = Math.round(40 + x / 2 + ((x * 7 + y * 13) % 10) * 3);
      truth.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  }
  const img = truth.slice();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const inDisc = (x - 150) ** 2 + (y - 50) ** 2 < 30 * 30;
      const inStroke = Math.abs(y - 20 - (x - 110) / 3) < 2 && x > 115 && x < 215;
      if (!inDisc && !inStroke) continue;
      hole[i] = 1; nnf[i] = i - 100;
      for (let c = 0; c < 3; c++) img[i * 3 + c] = truth[(i - 100) * 3 + c]!;
    }
  }
  return { w, h, img, truth, hole, nnf };
}

function meanAbsError(f: Float32Array, truth: Uint8Array, hole: Uint8Array): number {
  let e = 0, n = 0;
  for (let i = 0; i < hole.length; i++) if (hole[i]) { e += Math.abs(f[i * 3]! - truth[i * 3]!); n++; }
  return e / n;
}

describe('poissonFill (gradient-domain reconstruction, multigrid)', () => {
  it('recovers the true brightness of a coherent copy from the border (raw Poisson)', () => {
    const { w, h, img, truth, hole, nnf } = scene();
    expect(meanAbsError(Float32Array.from(img), truth, hole)).toBeGreaterThan(40); // the copy is off by ~50
    const f = poissonFill(img, hole, nnf, new Int16Array(w * h * 3), w, h, 0, 5);
    expect(meanAbsError(f, truth, hole)).toBeLessThan(0.5);
  });

  it('keeps most of the correction with the low-passed variant', () => {
    const { w, h, img, truth, hole, nnf } = scene();
    const f = poissonFill(img, hole, nnf, new Int16Array(w * h * 3), w, h, 1, 5);
    expect(meanAbsError(f, truth, hole)).toBeLessThan(6);
  });

  it('counts a copy bias as part of the copy (g = source + bias)', () => {
    const { w, h, img, truth, hole, nnf } = scene();
    const bias = new Int16Array(w * h * 3);
    for (let i = 0; i < hole.length; i++) {
      if (!hole[i]) continue;
      for (let c = 0; c < 3; c++) { bias[i * 3 + c] = 20; img[i * 3 + c] = Math.min(255, img[i * 3 + c]! + 20); }
    }
    const f = poissonFill(img, hole, nnf, bias, w, h, 0, 5);
    expect(meanAbsError(f, truth, hole)).toBeLessThan(0.5);
  });
});
