import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PORTRAITS, readPortrait } from '../testing/portrait-fixtures';
import { analyzeFaces } from './face-analysis';
import type { Point } from './face-regions';

const centroid = (poly: Point[]): Point => {
  const s = poly.reduce((a, p) => [a[0] + p[0], a[1] + p[1]] as Point, [0, 0] as Point);
  return [s[0] / poly.length, s[1] / poly.length];
};

describe('analyzeFaces on real portraits', () => {
  it.each(PORTRAITS)('finds a face with a consistent mesh in %s', async (name) => {
    const a = await analyzeFaces(await readPortrait(name));
    expect(a.faces.length).toBeGreaterThanOrEqual(1);
    const f = a.faces[0]!;
    expect(f.mesh.length).toBeGreaterThanOrEqual(468);
    expect(f.box.width).toBeGreaterThan(40);
    // anatomy sanity: eyes above nose tip above lips above chin; subject's left eyebrow on the image right
    const r = f.regions;
    expect(centroid(r.leftEye)[1]).toBeLessThan(centroid(r.nostrils)[1]);
    expect(centroid(r.upperLip)[1]).toBeLessThan(centroid(r.lowerLip)[1]);
    expect(centroid(r.leftEyebrow)[0]).toBeGreaterThan(centroid(r.rightEyebrow)[0]);
    expect(centroid(r.leftEyebrow)[1]).toBeLessThan(centroid(r.leftEye)[1]);
    for (const poly of Object.values(r)) {
      expect(poly.length).toBeGreaterThanOrEqual(3);
      for (const [x, y] of poly) {
        expect(x).toBeGreaterThan(-0.05 * a.width);
        expect(y).toBeLessThan(1.05 * a.height);
      }
    }
  });

  it('finds every face in a picture with two people', async () => {
    const a = await sharp(await readPortrait('rose_leslie_577x880.jpg')).resize({ height: 600 }).png().toBuffer();
    const b = await sharp(await readPortrait('obama_910x1137.jpg')).resize({ height: 600 }).png().toBuffer();
    const wa = (await sharp(a).metadata()).width!, wb = (await sharp(b).metadata()).width!;
    const both = await sharp({ create: { width: wa + wb, height: 600, channels: 3, background: '#808080' } })
      .composite([{ input: a, left: 0, top: 0 }, { input: b, left: wa, top: 0 }]).png().toBuffer();
    const res = await analyzeFaces(both);
    expect(res.faces.length).toBe(2);
    const xs = res.faces.map((f) => f.box.x + f.box.width / 2).sort((p, q) => p - q);
    expect(xs[0]!).toBeLessThan(wa);
    expect(xs[1]!).toBeGreaterThan(wa);
  });
});
