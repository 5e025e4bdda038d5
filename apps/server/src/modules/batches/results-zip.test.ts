import { randomBytes } from 'node:crypto';
import type { Duplex, Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { AppError } from '../../lib/app-error';
import { resultZipEntryNames, streamResultsZip, RESULTS_ZIP_MAX_BASE_CODE_POINTS, type ResultsZipEntry } from './results-zip';

/** An in-memory stand-in for the storage: `get` only, with the keys it was asked for, in order. */
function fakeStorage(objects: Record<string, Buffer>, opts: { onGet?: (key: string, call: number) => void } = {}) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    calls,
    maxInFlight: () => maxInFlight,
    async get(key: string): Promise<Buffer> {
      calls.push(key);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        // Let other work run while "reading", as a real store does.
        await new Promise<void>((resolve) => setImmediate(resolve));
        opts.onGet?.(key, calls.length);
        const bytes = objects[key];
        if (!bytes) throw new AppError('NOT_FOUND');
        return bytes;
      } finally {
        inFlight--;
      }
    },
  };
}

/** The whole output, or the error the stream ended with. */
async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The stream's error event (the test waits for it; no timers). */
function errorOf(stream: Readable): Promise<Error> {
  return new Promise((resolve) => {
    stream.once('error', resolve);
    stream.resume();
  });
}

interface ReadEntry {
  name: string;
  bytes: Buffer;
  flags: number;
  method: number;
}

async function unzip(zip: Buffer): Promise<ReadEntry[]> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true, strictFileNames: true });
  const out: ReadEntry[] = [];
  for await (const entry of file.eachEntry()) {
    const bytes = await collect(await file.openReadStreamPromise(entry));
    out.push({ name: entry.fileName, bytes, flags: entry.generalPurposeBitFlag, method: entry.compressionMethod });
  }
  return out;
}

const jpeg = (background: string): Promise<Buffer> =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } }).jpeg().toBuffer();

describe('resultZipEntryNames', () => {
  it('keeps the original base name (Korean too) and puts the result extension on it', () => {
    expect(resultZipEntryNames(['한글 사진.HEIC', 'IMG_0001.jpeg', 'holiday.png'], ['.jpg', 'jpg', '.PNG'])).toEqual([
      '한글 사진.jpg',
      'IMG_0001.jpg',
      'holiday.png',
    ]);
  });

  it('composes Korean names sent decomposed (NFD, as macOS does) into NFC', () => {
    const nfd = '보정 결과.jpg'.normalize('NFD');
    expect(nfd).not.toBe('보정 결과.jpg');
    expect(resultZipEntryNames([nfd], ['.jpg'])).toEqual(['보정 결과.jpg']);
  });

  it('drops directory parts, so a path cannot climb out of the folder the zip is opened in', () => {
    expect(resultZipEntryNames(['../../etc/passwd.jpg', 'C:\\Users\\me\\Desktop\\x.png', '/abs/y.jpg', '..\\..\\z'], ['.jpg', '.png', '.jpg', '.jpg'])).toEqual([
      'passwd.jpg',
      'x.png',
      'y.jpg',
      'z.jpg',
    ]);
  });

  it('replaces control characters, bidi overrides and the characters Windows refuses with _', () => {
    expect(resultZipEntryNames(['a\u0000b\tc\nd\u007fe\u0085f.jpg', 'a<b>c:d"e|f?g*h.jpg', 'evil\u202Egpj.jpg', 'x\uD800y.jpg'], ['.jpg', '.jpg', '.jpg', '.jpg'])).toEqual([
      'a_b_c_d_e_f.jpg',
      'a_b_c_d_e_f_g_h.jpg',
      'evil_gpj.jpg',
      'x_y.jpg',
    ]);
  });

  it('trims dots and spaces at the ends, and guards the Windows device names', () => {
    expect(resultZipEntryNames(['  ..name.. .jpg', 'CON.jpg', 'nul.tar.gz', 'console.jpg'], ['.jpg', '.jpg', '.jpg', '.jpg'])).toEqual([
      'name.jpg',
      '_CON.jpg',
      '_nul.tar.jpg',
      'console.jpg',
    ]);
  });

  it('keeps a dot that is not an extension', () => {
    expect(resultZipEntryNames(['2024.05.01 trip'], ['.jpg'])).toEqual(['2024.05.01 trip.jpg']);
  });

  it('falls back to photo-<n> (1-based) when nothing is left', () => {
    expect(resultZipEntryNames(['a.jpg', 'b.jpg', '', null, undefined, '.jpg', ' ... '], Array(7).fill('.jpg'))).toEqual([
      'a.jpg',
      'b.jpg',
      'photo-3.jpg',
      'photo-4.jpg',
      'photo-5.jpg',
      'photo-6.jpg',
      'photo-7.jpg',
    ]);
  });

  it('deduplicates ignoring case, numbering before the extension', () => {
    expect(resultZipEntryNames(['a.jpg', 'A.jpg', 'dir/a.png', 'a (2).jpg', 'photo-6.jpg', null], Array(6).fill('.jpg'))).toEqual([
      'a.jpg',
      'A (2).jpg',
      'a (3).jpg',
      'a (2) (2).jpg',
      'photo-6.jpg',
      'photo-6 (2).jpg',
    ]);
  });

  it('caps the base name at 100 code points, not bytes or UTF-16 units', () => {
    const [latin, korean, emoji] = resultZipEntryNames(['x'.repeat(300) + '.jpg', '가'.repeat(300) + '.jpg', '😀'.repeat(300) + '.jpg'], ['.jpg', '.jpg', '.png']);
    expect(RESULTS_ZIP_MAX_BASE_CODE_POINTS).toBe(100);
    expect(latin).toBe('x'.repeat(100) + '.jpg');
    expect(korean).toBe('가'.repeat(100) + '.jpg');
    expect(emoji).toBe('😀'.repeat(100) + '.png');
    expect(Array.from(emoji!)).toHaveLength(104);
  });

  it('leaves the extension off when it is missing or odd', () => {
    expect(resultZipEntryNames(['a.jpg', 'b.jpg'], ['.j/pg'])).toEqual(['a', 'b']);
  });
});

describe('streamResultsZip', () => {
  it('streams the stored images under their names, stored (method 0) with UTF-8 names (bit 11), byte for byte', async () => {
    const images = { 'u/1/r/1.jpg': await jpeg('#c33'), 'u/1/r/2.jpg': await jpeg('#3c3'), 'u/1/r/3.jpg': await jpeg('#33c') };
    const storage = fakeStorage(images);
    const names = resultZipEntryNames(['한글 사진.jpg', 'b.JPG', 'B.jpeg'], ['.jpg', '.jpg', '.jpg']);
    const entries: ResultsZipEntry[] = Object.keys(images).map((key, i) => ({ key, name: names[i]! }));

    const zip = await collect(streamResultsZip(storage, entries));

    const read = await unzip(zip);
    expect(read.map((e) => e.name)).toEqual(['한글 사진.jpg', 'b.jpg', 'B (2).jpg']);
    for (const [i, e] of read.entries()) {
      expect(e.bytes.equals(Object.values(images)[i]!)).toBe(true);
      expect(e.flags & 0x800).toBe(0x800);
      expect(e.method).toBe(0);
      const meta = await sharp(e.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 48]);
    }
    expect(storage.calls).toEqual(Object.keys(images));
  });

  it('gives the same bytes for the same inputs (fixed mtime), and writes the given mtime', async () => {
    const images = { a: await jpeg('#c33'), b: await jpeg('#3c3') };
    const entries = [
      { key: 'a', name: 'a.jpg' },
      { key: 'b', name: 'b.jpg' },
    ];
    const first = await collect(streamResultsZip(fakeStorage(images), entries));
    const second = await collect(streamResultsZip(fakeStorage(images), entries));
    expect(first.equals(second)).toBe(true);

    const mtime = new Date('2025-03-04T05:06:08Z');
    const dated = await collect(streamResultsZip(fakeStorage(images), entries, { mtime }));
    const file = await yauzl.fromBufferPromise(dated, { lazyEntries: true });
    for await (const entry of file.eachEntry()) expect(entry.getLastModDate().getTime()).toBe(mtime.getTime());
  });

  it('writes an empty zip for no entries', async () => {
    expect(await unzip(await collect(streamResultsZip(fakeStorage({}), [])))).toEqual([]);
  });

  it('ends with the storage error when a read fails, and reads nothing after it', async () => {
    const images = { a: await jpeg('#c33'), c: await jpeg('#33c') };
    const storage = fakeStorage(images); // 'missing' is not there: AppError NOT_FOUND
    const out = streamResultsZip(storage, [
      { key: 'a', name: 'a.jpg' },
      { key: 'missing', name: 'b.jpg' },
      { key: 'c', name: 'c.jpg' },
    ]);

    const err = await errorOf(out);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'NOT_FOUND' });
    expect(out.destroyed).toBe(true);
    expect(storage.calls).toEqual(['a', 'missing']);
  });

  it('ends with an Error when get rejects with something else, or throws before returning a promise', async () => {
    const rejecting = streamResultsZip({ get: () => Promise.reject('disk on fire') }, [{ key: 'a', name: 'a.jpg' }]);
    expect((await errorOf(rejecting)).message).toBe('disk on fire');
    const throwing = streamResultsZip(
      {
        get: () => {
          throw new Error('no client');
        },
      },
      [{ key: 'a', name: 'a.jpg' }],
    );
    expect((await errorOf(throwing)).message).toBe('no client');
  });

  it('reads one object at a time, and only once the output has taken the ones before it', async () => {
    const size = 1024 * 1024;
    const objects = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, randomBytes(size)]));
    let consumed = 0;
    const consumedAtGet: number[] = [];
    const storage = fakeStorage(objects, { onGet: () => consumedAtGet.push(consumed) });
    const out = streamResultsZip(
      storage,
      Object.keys(objects).map((key) => ({ key, name: `${key}.bin` })),
    );

    const parts: Buffer[] = [];
    for await (const part of out) {
      consumed += (part as Buffer).length;
      parts.push(part as Buffer);
    }

    expect(storage.maxInFlight()).toBe(1);
    expect(storage.calls).toEqual(Object.keys(objects));
    // When object k is read, the reader has already taken all of objects 0..k-1 but a buffer's worth:
    // the zip is never gathered ahead of its reader.
    consumedAtGet.forEach((c, k) => expect(c).toBeGreaterThanOrEqual(k * size - size / 4));
    const read = await unzip(Buffer.concat(parts));
    expect(read.map((e) => e.bytes.equals(objects[e.name.replace('.bin', '')]!))).toEqual(Array(6).fill(true));
  });

  it('holds the next read back while nobody reads the output (back-pressure)', async () => {
    const size = 1024 * 1024;
    const objects = { a: randomBytes(size), b: randomBytes(size), c: randomBytes(size) };
    let firstTaken!: () => void;
    const taken = new Promise<void>((resolve) => (firstTaken = resolve));
    const storage = fakeStorage(objects, { onGet: () => firstTaken() });
    const out = streamResultsZip(
      storage,
      Object.keys(objects).map((key) => ({ key, name: `${key}.bin` })),
    );
    await taken;
    // Give the pipes every chance to run ahead: the object is far larger than the output's buffer.
    for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(storage.calls).toEqual(['a']);
    // What waits in the output (its readable and writable sides) is a buffer's worth, not the object.
    expect(out.readableLength + (out as Duplex).writableLength).toBeLessThan(size / 4);

    await collect(out);
    expect(storage.calls).toEqual(['a', 'b', 'c']);
  });

  it('stops reading when the signal aborts (the client went away), ending with its reason', async () => {
    const images = { a: await jpeg('#c33'), b: await jpeg('#3c3'), c: await jpeg('#33c') };
    const controller = new AbortController();
    const storage = fakeStorage(images, { onGet: (key) => key === 'b' && controller.abort() });
    const out = streamResultsZip(
      storage,
      Object.keys(images).map((key) => ({ key, name: `${key}.jpg` })),
      { signal: controller.signal },
    );

    const err = await errorOf(out);
    expect(err.name).toBe('AbortError');
    for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(storage.calls).toEqual(['a', 'b']);
  });

  it('reads nothing when the signal is already aborted', async () => {
    const storage = fakeStorage({ a: Buffer.from('x') });
    const out = streamResultsZip(storage, [{ key: 'a', name: 'a.jpg' }], { signal: AbortSignal.abort() });
    expect((await errorOf(out)).name).toBe('AbortError');
    expect(storage.calls).toEqual([]);
  });

  it('stops reading when the consumer destroys the output', async () => {
    const images = { a: await jpeg('#c33'), b: await jpeg('#3c3'), c: await jpeg('#33c') };
    const ref: { out?: Readable } = {};
    const storage = fakeStorage(images, { onGet: (key) => key === 'b' && ref.out?.destroy() });
    const out = (ref.out = streamResultsZip(
      storage,
      Object.keys(images).map((key) => ({ key, name: `${key}.jpg` })),
    ));
    out.resume();
    await new Promise((resolve) => out.once('close', resolve));
    for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(storage.calls).toEqual(['a', 'b']);
  });

  it('refuses a name with folders before reading anything', () => {
    const storage = fakeStorage({});
    expect(() => streamResultsZip(storage, [{ key: 'a', name: '../a.jpg' }])).toThrow(TypeError);
    expect(() => streamResultsZip(storage, [{ key: 'a', name: '' }])).toThrow(TypeError);
    expect(storage.calls).toEqual([]);
  });
});
