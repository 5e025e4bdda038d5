import sharp from 'sharp';

/** A real JPEG of the given size (a gradient with noise), for upload tests. */
export async function makeJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = (x * y) % 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

export async function makePng(width: number, height: number): Promise<Buffer> {
  return sharp(await makeJpeg(width, height)).png().toBuffer();
}

/** A multipart/form-data body with one file field. */
export function multipartBody(field: string, filename: string, contentType: string, bytes: Buffer) {
  const boundary = `----dewy${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A TIFF/EXIF IFD entry: `value` is the list of numbers (RATIONAL: numerator, denominator pairs) or a string (ASCII). */
interface IfdEntry {
  tag: number;
  /** 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL */
  type: 1 | 2 | 3 | 4 | 5;
  value: number[] | string;
}

const TYPE_SIZE = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8 } as const;

function entryData(e: IfdEntry): Buffer {
  if (e.type === 2) return Buffer.from(`${e.value as string}\0`, 'latin1');
  const nums = e.value as number[];
  const b = Buffer.alloc(nums.length * (e.type === 5 ? 4 : TYPE_SIZE[e.type]));
  nums.forEach((n, i) => {
    if (e.type === 1) b.writeUInt8(n, i);
    else if (e.type === 3) b.writeUInt16LE(n, i * 2);
    else b.writeUInt32LE(n, i * 4);
  });
  return b;
}

function entryCount(e: IfdEntry): number {
  if (e.type === 2) return (e.value as string).length + 1;
  return e.type === 5 ? (e.value as number[]).length / 2 : (e.value as number[]).length;
}

/** Lays out one IFD at `offset` (little-endian TIFF); values over 4 bytes follow the IFD. */
function writeIfd(entries: IfdEntry[], offset: number): Buffer {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const head = Buffer.alloc(2 + sorted.length * 12 + 4);
  head.writeUInt16LE(sorted.length, 0);
  const extra: Buffer[] = [];
  let extraOffset = offset + head.length;
  sorted.forEach((e, i) => {
    const at = 2 + i * 12;
    const data = entryData(e);
    head.writeUInt16LE(e.tag, at);
    head.writeUInt16LE(e.type, at + 2);
    head.writeUInt32LE(entryCount(e), at + 4);
    if (data.length <= 4) data.copy(head, at + 8);
    else {
      head.writeUInt32LE(extraOffset, at + 8);
      extra.push(data);
      extraOffset += data.length + (data.length % 2);
      if (data.length % 2) extra.push(Buffer.alloc(1));
    }
  });
  return Buffer.concat([head, ...extra]);
}

function ifdLength(entries: IfdEntry[]): number {
  return writeIfd(entries, 0).length;
}

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(marker, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** What `withPersonalMetadata` writes into a JPEG. */
export interface PersonalMetadata {
  /** EXIF orientation 1..8. */
  orientation?: number;
  /** Camera body serial number (EXIF BodySerialNumber), also written as the Make. */
  serial?: string;
  /** GPS position in degrees (north and east positive). */
  gps?: { lat: number; lon: number };
  /** Adds an XMP packet and a JPEG comment carrying the same position. */
  xmpAndComment?: boolean;
}

/** Degrees as the three EXIF rationals degrees/1, minutes/1, seconds×100/100. */
function dms(deg: number): number[] {
  const a = Math.abs(deg);
  const d = Math.floor(a);
  const m = Math.floor((a - d) * 60);
  const s = Math.round(((a - d) * 60 - m) * 60 * 100);
  return [d, 1, m, 1, s, 100];
}

/**
 * `jpeg` with an EXIF APP1 segment built by hand right after SOI: IFD0 (Make, Orientation, pointers),
 * the EXIF IFD (BodySerialNumber) and the GPS IFD (version, latitude/longitude with refs), plus
 * optionally an XMP APP1 and a COM segment — what a phone camera leaves in a photo.
 */
export function withPersonalMetadata(jpeg: Buffer, meta: PersonalMetadata): Buffer {
  const ifd0: IfdEntry[] = [];
  if (meta.serial) ifd0.push({ tag: 0x010f, type: 2, value: 'DewyCam' });
  if (meta.orientation) ifd0.push({ tag: 0x0112, type: 3, value: [meta.orientation] });
  const exifIfd: IfdEntry[] = meta.serial ? [{ tag: 0xa431, type: 2, value: meta.serial }] : [];
  const gpsIfd: IfdEntry[] = meta.gps
    ? [
        { tag: 0x0000, type: 1, value: [2, 3, 0, 0] },
        { tag: 0x0001, type: 2, value: meta.gps.lat >= 0 ? 'N' : 'S' },
        { tag: 0x0002, type: 5, value: dms(meta.gps.lat) },
        { tag: 0x0003, type: 2, value: meta.gps.lon >= 0 ? 'E' : 'W' },
        { tag: 0x0004, type: 5, value: dms(meta.gps.lon) },
      ]
    : [];
  // Pointer entries take 12 bytes whatever their value: lay out with placeholders, then fill in.
  if (exifIfd.length) ifd0.push({ tag: 0x8769, type: 4, value: [0] });
  if (gpsIfd.length) ifd0.push({ tag: 0x8825, type: 4, value: [0] });
  const ifd0At = 8;
  const exifAt = ifd0At + ifdLength(ifd0);
  const gpsAt = exifAt + (exifIfd.length ? ifdLength(exifIfd) : 0);
  for (const e of ifd0) {
    if (e.tag === 0x8769) e.value = [exifAt];
    if (e.tag === 0x8825) e.value = [gpsAt];
  }
  const tiffHead = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
  const tiff = Buffer.concat([
    tiffHead,
    writeIfd(ifd0, ifd0At),
    ...(exifIfd.length ? [writeIfd(exifIfd, exifAt)] : []),
    ...(gpsIfd.length ? [writeIfd(gpsIfd, gpsAt)] : []),
  ]);
  const segments = [segment(0xffe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]))];
  if (meta.xmpAndComment && meta.gps) {
    const where = `${meta.gps.lat},${meta.gps.lon}`;
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="${where}"/></rdf:RDF></x:xmpmeta>`;
    segments.push(segment(0xffe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0${xmp}`, 'utf8')));
    segments.push(segment(0xfffe, Buffer.from(`shot at ${where}`, 'latin1')));
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** A JPEG whose pixels are laid out for orientation 6: `width × height` stored, shown rotated 90° clockwise. Top-left stored pixel is red. */
export async function makeRotatedJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3, 200);
  for (let y = 0; y < 20; y++) for (let x = 0; x < 20; x++) raw.set([255, 0, 0], (y * width + x) * 3);
  const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
  return withPersonalMetadata(jpeg, { orientation: 6 });
}

/** `<script>` HTML and a ZIP local-file header appended after the image's end: a polyglot upload. */
export const POLYGLOT_TAIL = Buffer.concat([
  Buffer.from('<html><script>alert(1)</script></html>', 'latin1'),
  Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
  Buffer.from('evil.html', 'latin1'),
]);

/**
 * What of a customer's personal data or a polyglot payload `bytes` still carries: EXIF (any APP1
 * `Exif`), the camera serial and position written by `withPersonalMetadata`, XMP, the comment, PNG
 * text, `<script`, a ZIP header, or bytes after the image's end. Empty when only the picture is left.
 */
export async function personalTraces(bytes: Buffer): Promise<string[]> {
  const found: string[] = [];
  const has = (s: string | Buffer) => bytes.includes(typeof s === 'string' ? Buffer.from(s, 'latin1') : s);
  for (const s of ['Exif\0', 'SN-DEWY', 'DewyCam', 'ns.adobe.com/xap', 'shot at', '<script', 'tEXt', 'eXIf', 'iTXt']) if (has(s)) found.push(s);
  if (has(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) found.push('ZIP header');
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  const end = isJpeg ? Buffer.from([0xff, 0xd9]) : Buffer.from('IEND\xae\x42\x60\x82', 'latin1');
  if (!bytes.subarray(bytes.length - end.length).equals(end)) found.push('bytes after the image end');
  const meta = await sharp(bytes).metadata();
  if (meta.exif) found.push('metadata.exif');
  if (meta.xmp) found.push('metadata.xmp');
  if (meta.iptc) found.push('metadata.iptc');
  if (meta.icc) found.push('metadata.icc');
  if (meta.orientation) found.push('metadata.orientation');
  if (meta.comments?.length) found.push('metadata.comments');
  return found;
}
