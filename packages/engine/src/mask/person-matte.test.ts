import { describe, expect, it } from 'vitest';
import { analyzeFacesRgb } from '../face/face-analysis';
import { decodeImage, type RgbImage } from '../io/image-io';
import { groupOfFour } from '../testing/constructed-cases';
import { readPortrait } from '../testing/portrait-fixtures';
import { buildHairMask } from './hair-mask';
import type { Plane } from './mask-raster';
import { personMatte, resizePlaneBilinear } from './person-matte';

/** Mean of `p` over the rectangle [x0, x1) × [y0, y1) (fractions of the plane size when ≤ 1). */
function meanIn(p: Plane, x0: number, y0: number, x1: number, y1: number, where?: (i: number) => boolean): { mean: number; n: number } {
  let s = 0, n = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(p.height, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(p.width, Math.round(x1)); x++) {
      const i = y * p.width + x;
      if (where && !where(i)) continue;
      s += p.data[i]!; n++;
    }
  }
  return { mean: n > 0 ? s / n : 0, n };
}

/** Auburn/red hair pixels, judged by colour alone (independent of the matte): red well above green and blue. */
function isRedHair(img: RgbImage, i: number): boolean {
  const r = img.data[i * 3]!, g = img.data[i * 3 + 1]!, b = img.data[i * 3 + 2]!;
  return r > 70 && r > 1.45 * g && r > 1.45 * b && g < 120;
}

describe('person matte (selfie segmentation) and hair mask', () => {
  it('bilinear plane resize keeps values soft and in range', () => {
    const src: Plane = { data: new Float32Array([0, 1, 1, 0]), width: 2, height: 2 };
    const big = resizePlaneBilinear(src, 8, 8);
    expect(big.data.every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(big.data.some((v) => v > 0.2 && v < 0.8)).toBe(true);
    expect(big.data[0]).toBeCloseTo(0, 5);
    expect(big.data[7]).toBeCloseTo(1, 5);
  });

  it('is high at the face centre and low in the top corners on obama', async () => {
    const img = await decodeImage(await readPortrait('obama_910x1137.jpg'));
    const matte = await personMatte(img);
    expect(matte).not.toBeNull();
    expect([matte!.width, matte!.height]).toEqual([910, 1137]);
    const { box } = (await analyzeFacesRgb(img)).faces[0]!;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    expect(meanIn(matte!, cx - 0.1 * box.width, cy - 0.1 * box.height, cx + 0.1 * box.width, cy + 0.1 * box.height).mean).toBeGreaterThan(0.9);
    const c = 0.08;
    expect(meanIn(matte!, 0, 0, c * 910, c * 1137).mean).toBeLessThan(0.05);
    expect(meanIn(matte!, (1 - c) * 910, 0, 910, c * 1137).mean).toBeLessThan(0.05);
    // soft, not a hard threshold: some edge pixels lie strictly between 0 and 1
    expect(matte!.data.some((v) => v > 0.2 && v < 0.8)).toBe(true);
  });

  it('covers most of the red hair above the face on rose_leslie and little of the background corners', async () => {
    const img = await decodeImage(await readPortrait('rose_leslie_577x880.jpg'));
    const matte = await personMatte(img);
    expect(matte).not.toBeNull();
    const faces = (await analyzeFacesRgb(img)).faces;
    const hair = buildHairMask(img, faces, matte);
    const { box } = faces[0]!;
    // band above the face box, over the head's width: red pixels there are hair
    const above = meanIn(hair, box.x, box.y - 0.45 * box.height, box.x + box.width, box.y, (i) => isRedHair(img, i));
    // and the hair beside the face (cheek level), left and right of the box
    const outsideBox = (i: number): boolean => { const x = i % img.width; return (x < box.x || x >= box.x + box.width) && isRedHair(img, i); };
    const sides = meanIn(hair, box.x - 0.4 * box.width, box.y + 0.2 * box.height, box.x + 1.4 * box.width, box.y + 0.8 * box.height, outsideBox);
    console.info('hair coverage: above', above, 'sides', sides);
    expect(above.n).toBeGreaterThan(2000);
    expect(above.mean).toBeGreaterThan(0.8);
    expect(sides.n).toBeGreaterThan(2000);
    expect(sides.mean).toBeGreaterThan(0.8);
    // background far from the head inside the search window: the top corners of the window around the face
    // (dark backdrop and the orange sign letters at the top right)
    const bgL = meanIn(hair, box.x - 0.8 * box.width, 0, box.x - 0.5 * box.width, box.y - 0.25 * box.height);
    const bgR = meanIn(hair, box.x + 1.5 * box.width, 0, box.x + 1.8 * box.width, box.y - 0.25 * box.height);
    console.info('hair coverage: background', bgL, bgR);
    for (const k of [bgL, bgR]) {
      expect(k.n).toBeGreaterThan(1000);
      expect(k.mean).toBeLessThan(0.03);
    }
    // the face itself is not hair
    const fc = meanIn(hair, box.x + 0.3 * box.width, box.y + 0.3 * box.height, box.x + 0.7 * box.width, box.y + 0.7 * box.height);
    expect(fc.mean).toBe(0);
    // the colour-heuristic fallback (no matte) still finds the red hair above the face
    expect(meanIn(buildHairMask(img, faces, null), box.x, box.y - 0.45 * box.height, box.x + box.width, box.y, (i) => isRedHair(img, i)).mean).toBeGreaterThan(0.6);
    // the matte drives the mask: no person, no hair
    const none = buildHairMask(img, faces, { ...matte!, data: new Float32Array(matte!.data.length) });
    expect(none.data.every((v) => v === 0)).toBe(true);
  });

  it('finds every person of a wide (3:1) group: square windows, not the whole photo squeezed to 256²', async () => {
    const img = await decodeImage(await groupOfFour(readPortrait));
    const matte = (await personMatte(img))!;
    const faces = (await analyzeFacesRgb(img)).faces;
    expect(faces).toHaveLength(4);
    // measured before: mean matte 0.02 over the photo, the faces mostly 0
    for (const f of faces) {
      const { box } = f;
      expect(meanIn(matte, box.x + 0.25 * box.width, box.y + 0.25 * box.height, box.x + 0.75 * box.width, box.y + 0.75 * box.height).mean).toBeGreaterThan(0.8);
    }
  });
});
