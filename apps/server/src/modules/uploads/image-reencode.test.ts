import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeJpeg, makePng, makeRotatedJpeg, personalTraces, POLYGLOT_TAIL, withPersonalMetadata } from '../../../test/helpers/images';
import { sniffImageType } from '../../lib/image-type';
import { prepareOriginal, webpToPng } from './image-reencode';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const obamaJpg = readFileSync(path.join(FIXTURES, 'obama_910x1137.jpg'));
const SEOUL = { lat: 37.5665, lon: 126.978 };

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

describe('prepareOriginal', () => {
  it('the test photo really carries GPS, a serial, XMP and a comment that sharp reads', async () => {
    const photo = withPersonalMetadata(await makeJpeg(64, 48), { orientation: 1, serial: 'SN-DEWY-0042', gps: SEOUL, xmpAndComment: true });
    const meta = await sharp(photo).metadata();
    expect(meta.exif).toBeDefined();
    expect(meta.xmp).toBeDefined();
    // libexif parsed our IFDs: re-serialising the parsed EXIF keeps the serial and the GPS IFD (refs N/E, 37°/1).
    const reparsed = (await sharp(await sharp(photo).keepExif().jpeg().toBuffer()).metadata()).exif!;
    expect(reparsed.includes('SN-DEWY-0042')).toBe(true);
    expect(reparsed.includes(Buffer.from('N\0', 'latin1'))).toBe(true);
    expect(reparsed.includes(Buffer.from([37, 0, 0, 0, 1, 0, 0, 0]))).toBe(true);
    expect(await personalTraces(photo)).toEqual(expect.arrayContaining(['Exif\0', 'SN-DEWY', 'ns.adobe.com/xap', 'shot at', 'metadata.exif']));
  });

  it('keeps only the picture of a JPEG with GPS EXIF, a serial, XMP, a comment and an appended <script> + ZIP', async () => {
    const upload = Buffer.concat([withPersonalMetadata(obamaJpg, { serial: 'SN-DEWY-0042', gps: SEOUL, xmpAndComment: true }), POLYGLOT_TAIL]);
    const out = await prepareOriginal(upload);
    expect(out).toMatchObject({ mime: 'image/jpeg', ext: 'jpg', width: 910, height: 1137 });
    expect(await personalTraces(out.bytes)).toEqual([]);
    expect(out.bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    // Still the same picture: near-identical pixels.
    const [a, b] = await Promise.all([sharp(obamaJpg).raw().toBuffer(), sharp(out.bytes).raw().toBuffer()]);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
    expect(diff / a.length).toBeLessThan(2);
  });

  it('keeps a PNG a PNG (alpha too) without its text chunks or bytes after IEND', async () => {
    const png = await sharp(await makePng(40, 30)).ensureAlpha(0.5).png().toBuffer();
    const afterIhdr = 8 + 25;
    const upload = Buffer.concat([
      png.subarray(0, afterIhdr),
      pngChunk('tEXt', Buffer.from('Comment\0shot at 37.5665,126.978', 'latin1')),
      png.subarray(afterIhdr),
      POLYGLOT_TAIL,
    ]);
    expect((await sharp(upload).metadata()).comments).toBeDefined();
    const out = await prepareOriginal(upload);
    expect(out).toMatchObject({ mime: 'image/png', ext: 'png', width: 40, height: 30 });
    expect(await personalTraces(out.bytes)).toEqual([]);
    expect((await sharp(out.bytes).metadata()).hasAlpha).toBe(true);
  });

  it('applies EXIF orientation 6: stored upright, sides swapped, no orientation tag left', async () => {
    const upload = await makeRotatedJpeg(60, 40);
    expect((await sharp(upload).metadata()).orientation).toBe(6);
    const out = await prepareOriginal(upload);
    expect([out.width, out.height]).toEqual([40, 60]);
    expect(await personalTraces(out.bytes)).toEqual([]);
    // The red block stored top-left is shown top-right once turned 90° clockwise.
    const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(px(info.width - 3, 3)[0]).toBeGreaterThan(230);
    expect(px(info.width - 3, 3)[1]).toBeLessThan(40);
    expect(px(3, 3)[1]).toBeGreaterThan(150);
  });

  it('converts CMYK and ICC-profiled photos to sRGB instead of dropping their colours', async () => {
    const flat = sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 100, b: 50 } } });
    const cmyk = await flat.clone().toColourspace('cmyk').jpeg().toBuffer();
    const p3 = await flat.clone().withIccProfile('p3').jpeg({ quality: 100 }).toBuffer();
    for (const upload of [cmyk, p3]) {
      const out = await prepareOriginal(upload);
      const meta = await sharp(out.bytes).metadata();
      expect([meta.space, meta.channels, meta.icc]).toEqual(['srgb', 3, undefined]);
      const [r, g, b] = (await sharp(out.bytes).raw().toBuffer()).subarray(0, 3);
      expect(Math.abs(r! - 200) + Math.abs(g! - 100) + Math.abs(b! - 50)).toBeLessThan(40);
    }
  });

  it('serves many parallel calls through its few re-encode slots, refusals inside a slot included', async () => {
    const good = await makeJpeg(300, 200);
    const results = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => prepareOriginal(i % 3 === 2 ? good.subarray(0, good.length >> 1) : good)));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 9 }, (_, i) => (i % 3 === 2 ? 'rejected' : 'fulfilled')));
    // The slots were all handed back: one more call still runs.
    expect((await prepareOriginal(good)).width).toBe(300);
  });

  it('refuses what inspection refuses: truncated, not an image, pixel bomb', async () => {
    await expect(prepareOriginal(obamaJpg.subarray(0, obamaJpg.length >> 1))).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
    await expect(prepareOriginal(Buffer.from('<html><script>alert(1)</script></html>'))).rejects.toMatchObject({ code: 'UNSUPPORTED_IMAGE_TYPE' });
    const bomb = Buffer.from('89504e470d0a1a0a0000000d49484452000075300000753008020000000000000000', 'hex');
    await expect(prepareOriginal(bomb)).rejects.toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS' });
  });
});

describe('webpToPng (a WebP reference, 002 §5)', () => {
  const limits = { maxBytes: 25 * 1024 * 1024, maxPixels: 50_000_000, maxSide: 12_000 };

  it('turns a WebP into an upright PNG of the same picture; JPEG and PNG pass unchanged', async () => {
    // 3 wide × 2 tall, shown rotated 90° (EXIF orientation 6): upright it is 2 × 3.
    const webp = await sharp(await makeJpeg(30, 20)).withMetadata({ orientation: 6 }).webp({ quality: 90 }).toBuffer();
    expect((await sharp(webp).metadata()).orientation).toBe(6);
    const out = await webpToPng(webp, limits);
    expect(sniffImageType(out)).toBe('image/png');
    expect(await sharp(out).metadata()).toMatchObject({ width: 20, height: 30, format: 'png' });
    const jpeg = await makeJpeg(16, 16);
    expect(await webpToPng(jpeg, limits)).toBe(jpeg);
    const png = await makePng(16, 16);
    expect(await webpToPng(png, limits)).toBe(png);
  });

  it('refuses a WebP over the byte or pixel limit before decoding it, and a damaged one', async () => {
    const webp = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#888' } }).webp().toBuffer();
    await expect(webpToPng(webp, { ...limits, maxBytes: webp.length - 1 })).rejects.toMatchObject({ code: 'IMAGE_TOO_LARGE' });
    await expect(webpToPng(webp, { ...limits, maxPixels: 400 * 300 - 1 })).rejects.toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS' });
    await expect(webpToPng(webp, { ...limits, maxSide: 399 })).rejects.toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS' });
    await expect(webpToPng(webp.subarray(0, 40), limits)).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
  });
});
