import { describe, expect, it } from 'vitest';
import { readPortrait, TEST_MODELS_DIR } from '../testing/portrait-fixtures';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVAL_CRITERIA, evaluatePhoto, refereePhoto, type FaceFigures, type PhotoFigures } from './evaluate';

describe('npm run eval (evaluatePhoto)', () => {
  it('measures a portrait: fit, texture band, edges, landmark shift, exclusions exact, crops written', async () => {
    const written: string[] = [];
    const r = await evaluatePhoto('codeformer03_asian_female_400x225.jpg', await readPortrait('codeformer03_asian_female_400x225.jpg'), {
      levels: [2, 5], modelsDir: TEST_MODELS_DIR, noSr: true, writeFile: (name) => { written.push(name); return Promise.resolve(); },
    });
    expect(r.facesFound).toBe(1);
    const f = r.faces[0]!;
    expect(f.verdict).toBe('good');
    const l = f.levels[0]!;
    expect(l.cheekHf).toBeGreaterThan(0.5);
    expect(l.cheekHf).toBeLessThan(0.7);
    expect(l.eyeBrowEdges).toBeGreaterThan(0.9);
    expect(l.featureEdges).toBeGreaterThan(EVAL_CRITERIA.featureEdgesMin);
    expect(l.landmarkShiftPct).toBeLessThan(3);
    // basic has no lip tint: the lips change only by smoothing at their border
    expect(l.lipDeltaE).toBeGreaterThanOrEqual(0);
    expect(l.lipDeltaE).toBeLessThan(0.5);
    for (const [region, m] of Object.entries(f.exclusionMad)) {
      expect(m.pixels, region).toBeGreaterThan(20);
      expect(m.mad, region).toBeLessThanOrEqual(1);
    }
    expect(written).toEqual(['codeformer03_asian_female_400x225_face0_L2.png', 'codeformer03_asian_female_400x225_face0_L5.png', 'codeformer03_asian_female_400x225_face0_sheet.png']);
    expect(r.verdict).toEqual({ pass: true, failures: [] });
  });

  // Issue 26, class 7: the eval printed "retouch none" beside figures that read like a pass.
  describe('the referee', () => {
    const face = (over: Partial<FaceFigures> = {}): FaceFigures => ({
      index: 0, box: { x: 0, y: 0, width: 283, height: 340 }, verdict: 'good', fitScore: 1, pass: 'whole', rollDeg: 0, signals: {},
      levels: [{ level: 2, retouch: 'full', cheekHf: 0.6, eyeBrowEdges: 1, featureEdges: 0.99, landmarkShiftPct: 0.3, faceMad: 1.8, lipDeltaE: 0 }],
      exclusionMad: { nose: { mad: 0, pixels: 900 } }, ...over,
    });
    const photo = (faces: FaceFigures[], sr?: PhotoFigures['sr']) => ({ file: 'x.jpg', width: 800, height: 1000, facesFound: faces.length, faces, sr, ms: 1 });

    it('passes a face retouched within every criterion', () => {
      expect(refereePhoto(photo([face()]))).toEqual({ pass: true, failures: [] });
    });

    it('fails a face found but left unretouched, and says why (its fit)', () => {
      const skipped = face({ verdict: 'poor', fitScore: 0, levels: [{ level: 2, retouch: 'none', cheekHf: 1, eyeBrowEdges: 1, featureEdges: 1, landmarkShiftPct: 0, faceMad: 0, lipDeltaE: 0 }] });
      const v = refereePhoto(photo([skipped]));
      expect(v.pass).toBe(false);
      expect(v.failures[0]).toMatch(/face 0 \(283 px\) found but not retouched: fit poor, score 0/);
    });

    it('fails softened features beyond the mesh, an inexact exclusion, moved landmarks, a face lost, SR softer than Lanczos', () => {
      const v = refereePhoto(photo([face({
        exclusionMad: { leftEyebrow: { mad: 8.3, pixels: 400 } },
        levels: [
          { level: 0, retouch: 'full', cheekHf: 0.45, eyeBrowEdges: 0.99, featureEdges: 0.78, landmarkShiftPct: 0.4, faceMad: 3, lipDeltaE: 5 },
          { level: 4, retouch: 'full', cheekHf: 0.5, eyeBrowEdges: 0.99, featureEdges: 0.97, landmarkShiftPct: 2.4, faceMad: 3, lipDeltaE: 5 },
          { level: 7, retouch: 'full', cheekHf: 0.5, eyeBrowEdges: 0.99, featureEdges: 0.97, landmarkShiftPct: NaN, faceMad: 3, lipDeltaE: 5 },
        ],
      })], { crop: { width: 256, height: 256 }, model: 'lsdir-compact-c3', modelFile: 'm.onnx', gradientRatio: 0.7, grainRatio: 1, ms: 1 }));
      expect(v.pass).toBe(false);
      expect(v.failures).toHaveLength(5);
      expect(v.failures.join('\n')).toMatch(/excluded leftEyebrow changed by 8\.30/);
      expect(v.failures.join('\n')).toMatch(/level 0: feature edges beyond the mesh kept 78 %/);
      expect(v.failures.join('\n')).toMatch(/level 4: landmarks moved 2\.40 %/);
      expect(v.failures.join('\n')).toMatch(/level 7: the face is not found again/);
      expect(v.failures.join('\n')).toMatch(/SR keeps 0\.70 of Lanczos/);
    });
  });

  it('refuses to measure the fallback upscaler in silence: a missing SR model is an error', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-no-models-'));
    const sharp = (await import('sharp')).default;
    const sky = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#88aadd' } }).png().toBuffer();
    await expect(evaluatePhoto('sky.png', sky, { levels: [], modelsDir: empty, srCrop: 32 })).rejects.toThrow(/SR_MODEL_MISSING/);
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('runs on a photo without a face', async () => {
    const sharp = (await import('sharp')).default;
    const sky = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#88aadd' } }).png().toBuffer();
    const r = await evaluatePhoto('sky.png', sky, { levels: [2], modelsDir: TEST_MODELS_DIR, srCrop: 64 });
    expect(r.facesFound).toBe(0);
    expect(r.sr?.gradientRatio).toBeGreaterThan(0);
    expect(r.sr?.modelFile).toMatch(/4xLSDIRCompactC3/);
    expect(r.verdict.pass).toBe(true);
  });
});
