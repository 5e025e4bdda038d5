import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeFacesRgb, type FaceAnalysis } from '../face/face-analysis';
import { decodeImage, type RgbImage } from '../io/image-io';
import { hairNextToRedJacket, unexplainedStraightRuns } from '../testing/constructed-cases';
import { readPortrait } from '../testing/portrait-fixtures';
import { buildHairMasks } from './hair-mask';
import type { Plane } from './mask-raster';
import { personMatte } from './person-matte';

/** 4-connected components of matte ≥ `t`; returns the label map (0 = not person). */
function components(matte: Plane, t: number): Int32Array {
  const { width: w, height: h, data } = matte;
  const lab = new Int32Array(w * h);
  let next = 0;
  for (let s = 0; s < w * h; s++) {
    if (lab[s] || data[s]! < t) continue;
    lab[s] = ++next;
    const stack = [s];
    while (stack.length) {
      const k = stack.pop()!, x = k % w, y = (k - x) / w;
      for (const q of [x > 0 ? k - 1 : -1, x < w - 1 ? k + 1 : -1, y > 0 ? k - w : -1, y < h - 1 ? k + w : -1]) {
        if (q >= 0 && !lab[q] && data[q]! >= t) { lab[q] = next; stack.push(q); }
      }
    }
  }
  return lab;
}

// Issue 12, class 1: hair exclusion pasted rectangles into a neighbour's clothing.
describe('hair masks of two people close together (constructed: red hair touching a red jacket)', () => {
  let img: RgbImage, seam: number, analysis: FaceAnalysis, matte: Plane, masks: Plane[];
  beforeAll(async () => {
    const pair = await hairNextToRedJacket(readPortrait);
    seam = pair.seam;
    img = await decodeImage(pair.png);
    analysis = await analyzeFacesRgb(img);
    matte = (await personMatte(img))!;
    masks = buildHairMasks(img, analysis.faces, matte);
  });

  it('finds both people and gives each a mask that stays on their own side of the seam', () => {
    expect(analysis.faces).toHaveLength(2);
    expect(matte).not.toBeNull();
    for (const [k, f] of analysis.faces.entries()) {
      const left = f.box.x + f.box.width / 2 < seam;
      let own = 0, across = 0;
      for (let i = 0; i < masks[k]!.data.length; i++) {
        if (masks[k]!.data[i]! <= 0) continue;
        const x = i % img.width;
        if (left ? x < seam : x >= seam) own++;
        else across++;
      }
      expect(own, `face ${k} has hair`).toBeGreaterThan(2000);
      // the search-window mask of the old engine put 10,611 px of Rose's "hair" into the jacket
      expect(across, `face ${k} mask pixels in the other person`).toBe(0);
    }
  });

  it('puts no mask pixel outside its owner\'s matte component', () => {
    const lab = components(matte, 0.3);
    for (const [k, f] of analysis.faces.entries()) {
      const c = f.mesh[1]!; // nose tip: on the person for sure
      const own = lab[Math.round(c[1]) * img.width + Math.round(c[0])]!;
      expect(own).toBeGreaterThan(0);
      let outside = 0;
      for (let i = 0; i < masks[k]!.data.length; i++) if (masks[k]!.data[i]! > 0 && lab[i] !== own) outside++;
      expect(outside, `face ${k}`).toBe(0);
    }
  });

  it('has no straight edge the photo does not explain (no run of ≥ 12 collinear boundary pixels across the person)', () => {
    // the old mask had 26 such runs here: its window's right edge in the jacket, its bottom edge and the
    // below-chin column limits inside the long hair
    for (const [k, m] of masks.entries()) expect(unexplainedStraightRuns(m.data, img, matte.data, analysis.faces), `face ${k}`).toEqual([]);
  });
});

describe('hair mask on a single portrait', () => {
  it('has no unexplained straight edges on rose_leslie (long hair below the chin) either', async () => {
    const img = await decodeImage(await readPortrait('rose_leslie_577x880.jpg'));
    const a = await analyzeFacesRgb(img);
    const matte = (await personMatte(img))!;
    const [m] = buildHairMasks(img, a.faces, matte);
    expect(unexplainedStraightRuns(m!.data, img, matte.data, a.faces)).toEqual([]);
  });
});
