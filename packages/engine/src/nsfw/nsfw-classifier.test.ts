import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { classifyNsfw } from './nsfw-classifier';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../shared/fixtures/portraits');

describe('NSFW classifier (NSFWJS MobileNetV2 on tfjs-wasm)', () => {
  it.each(['obama_910x1137.jpg', 'rose_leslie_577x880.jpg', 'codeformer03_asian_female_400x225.jpg'])('scores the portrait %s as safe', async (f) => {
    const s = await classifyNsfw(readFileSync(path.join(FIXTURES, f)));
    const sum = s.drawing + s.hentai + s.neutral + s.porn + s.sexy;
    expect(sum).toBeGreaterThan(0.98);
    expect(s.porn + s.hentai).toBeLessThan(0.3);
    expect(s.neutral).toBeGreaterThan(0.5);
  });

  it('refuses what it cannot decode', async () => {
    await expect(classifyNsfw(Buffer.from('not an image'))).rejects.toThrow();
  });

  it('a flat drawing-like card is not scored as a photo of skin', async () => {
    const card = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3060c0' } }).png().toBuffer();
    const s = await classifyNsfw(card);
    expect(s.porn + s.hentai).toBeLessThan(0.5);
  });
});
