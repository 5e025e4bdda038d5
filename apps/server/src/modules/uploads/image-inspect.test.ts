import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inspectImage, readImageSize, sniffImageType } from './image-inspect';

// Tests read the shared portraits in place; they are never copied into the repository.
const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/portraits');
const obamaJpg = readFileSync(path.join(FIXTURES, 'obama_910x1137.jpg'));
const adelePng = readFileSync(path.join(FIXTURES, 'gfpgan_adele_crop_512.png'));

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid-looking PNG whose header claims `width × height` but whose data is a few bytes. */
function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG header (APP0 then SOF0) claiming `width × height`, with no scan data. */
function jpegBomb(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  sof[9] = 3;
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

describe('sniffImageType', () => {
  it('knows JPEG and PNG by their magic bytes and nothing else', async () => {
    expect(sniffImageType(obamaJpg)).toBe('image/jpeg');
    expect(sniffImageType(adelePng)).toBe('image/png');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeUndefined();
    expect(sniffImageType(await sharp(adelePng).webp().toBuffer())).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeUndefined();
  });
});

describe('inspectImage', () => {
  it('reads a real JPEG and PNG', async () => {
    expect(await inspectImage(obamaJpg)).toEqual({ mime: 'image/jpeg', ext: 'jpg', width: 910, height: 1137, orientation: 1 });
    expect(await inspectImage(adelePng)).toEqual({ mime: 'image/png', ext: 'png', width: 512, height: 512, orientation: 1 });
  });

  it('agrees with sharp on header sizes, progressive JPEG and EXIF orientation included', async () => {
    const progressive = await sharp(adelePng).resize(300, 200).jpeg({ progressive: true }).withMetadata({ orientation: 6 }).toBuffer();
    expect(readImageSize(progressive, 'image/jpeg')).toEqual({ width: 300, height: 200 });
    expect(await inspectImage(progressive)).toMatchObject({ width: 300, height: 200, orientation: 6 });
  });

  it('judges by bytes: a PNG uploaded as "photo.jpg" is a PNG, a text file named .jpg is refused', async () => {
    // The file name and declared MIME are not inputs at all; these are the bytes such uploads carry.
    expect((await inspectImage(adelePng)).mime).toBe('image/png');
    await expect(inspectImage(Buffer.from('this is not an image, just named photo.jpg\n'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_IMAGE_TYPE',
    });
  });

  it('refuses a GIF and a WebP', async () => {
    const gif = await sharp(adelePng).resize(16, 16).gif().toBuffer();
    await expect(inspectImage(gif)).rejects.toMatchObject({ code: 'UNSUPPORTED_IMAGE_TYPE' });
    const webp = await sharp(adelePng).resize(16, 16).webp().toBuffer();
    await expect(inspectImage(webp)).rejects.toMatchObject({ code: 'UNSUPPORTED_IMAGE_TYPE' });
  });

  it('refuses a truncated JPEG and PNG as corrupt', async () => {
    await expect(inspectImage(obamaJpg.subarray(0, obamaJpg.length >> 1))).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
    await expect(inspectImage(adelePng.subarray(0, adelePng.length >> 1))).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
    // Cut inside the header: no frame size can be read.
    await expect(inspectImage(obamaJpg.subarray(0, 10))).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
  });

  it('refuses a file over the byte cap before looking further', async () => {
    await expect(inspectImage(obamaJpg, { maxBytes: 1000, maxPixels: 50_000_000, maxSide: 12_000 })).rejects.toMatchObject({
      code: 'IMAGE_TOO_LARGE',
    });
    await expect(inspectImage(Buffer.alloc(25 * 1024 * 1024 + 1))).rejects.toMatchObject({ code: 'IMAGE_TOO_LARGE' });
  });

  it('refuses a 30000×30000 pixel bomb from its header, fast and without decoding', async () => {
    for (const bomb of [pngBomb(30_000, 30_000), jpegBomb(30_000, 30_000)]) {
      expect(bomb.length).toBeLessThan(200);
      const t0 = performance.now();
      // Had the decode run first, these tiny bodies would have come back IMAGE_CORRUPT.
      await expect(inspectImage(bomb)).rejects.toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS', details: { width: 30_000, height: 30_000 } });
      // decoding 900 Mpx would take many seconds; reading the header takes milliseconds (1 s leaves room for a loaded CI)
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });

  it('refuses a side over maxSide even under the pixel cap', async () => {
    await expect(inspectImage(pngBomb(12_001, 10))).rejects.toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS' });
    // Within both caps the header passes and the missing data is then found by the decode.
    await expect(inspectImage(pngBomb(1000, 1000))).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
  });
});
