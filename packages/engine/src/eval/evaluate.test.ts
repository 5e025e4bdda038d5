import { describe, expect, it } from 'vitest';
import { readPortrait, TEST_MODELS_DIR } from '../testing/portrait-fixtures';
import { evaluatePhoto } from './evaluate';

describe('npm run eval (evaluatePhoto)', () => {
  it('measures a portrait: fit, texture band, edges, landmark shift, exclusions exact, crops written', async () => {
    const written: string[] = [];
    const r = await evaluatePhoto('codeformer03_asian_female_400x225.jpg', await readPortrait('codeformer03_asian_female_400x225.jpg'), {
      levels: [2], modelsDir: TEST_MODELS_DIR, noSr: true, writeFile: (name) => { written.push(name); return Promise.resolve(); },
    });
    expect(r.facesFound).toBe(1);
    const f = r.faces[0]!;
    expect(f.verdict).toBe('good');
    const l = f.levels[0]!;
    expect(l.cheekHf).toBeGreaterThan(0.5);
    expect(l.cheekHf).toBeLessThan(0.7);
    expect(l.eyeBrowEdges).toBeGreaterThan(0.9);
    expect(l.landmarkShiftPct).toBeLessThan(3);
    // basic has no lip tint: the lips change only by smoothing at their border
    expect(l.lipDeltaE).toBeGreaterThanOrEqual(0);
    expect(l.lipDeltaE).toBeLessThan(0.5);
    for (const [region, m] of Object.entries(f.exclusionMad)) {
      expect(m.pixels, region).toBeGreaterThan(20);
      expect(m.mad, region).toBeLessThanOrEqual(1);
    }
    expect(written).toEqual(['codeformer03_asian_female_400x225_face0_L2.png']);
  });

  it('runs on a photo without a face', async () => {
    const sharp = (await import('sharp')).default;
    const sky = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#88aadd' } }).png().toBuffer();
    const r = await evaluatePhoto('sky.png', sky, { levels: [2], modelsDir: TEST_MODELS_DIR, srCrop: 64 });
    expect(r.facesFound).toBe(0);
    expect(r.sr?.gradientRatio).toBeGreaterThan(0);
  });
});
