/**
 * The batch-retouch download: one zip of a batch's stored result images (up to 50 photos), streamed as
 * it is written. The zip is never held in memory: entries are read from storage one after another, each
 * only when the zip writer (yazl) is ready for it.
 */
import { Readable, type PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { abortReason } from '../../lib/abortable-sleep';
import type { StorageProvider } from '../../providers/storage/storage.provider';

/** One file of the zip: the stored object `key`, written under `name` (a flat file name, no folders). */
export interface ResultsZipEntry {
  key: string;
  name: string;
}

export interface StreamResultsZipOptions {
  /** Aborting it (the client went away) stops reading further objects and destroys the stream with the signal's reason. */
  signal?: AbortSignal;
  /** Modification time written for every entry (default {@link RESULTS_ZIP_DEFAULT_MTIME}). */
  mtime?: Date;
}

/**
 * The entries' modification time when the caller gives none: fixed, so that the same inputs give the
 * same bytes. (The DOS date/time field of an entry is in the server's local time zone, the Info-ZIP
 * "UT" field in UTC: the bytes are the same for the same inputs on servers in the same time zone.)
 */
export const RESULTS_ZIP_DEFAULT_MTIME = new Date('2024-01-01T00:00:00Z');

/** Longest base name kept, in code points (the extension and a ` (n)` suffix come on top). */
export const RESULTS_ZIP_MAX_BASE_CODE_POINTS = 100;

/** Bytes per chunk fed to the zip writer, so that back-pressure works below the size of one image. */
const CHUNK_BYTES = 64 * 1024;

// Control characters (C0, DEL, C1), lone surrogates (they would become U+FFFD in UTF-8), bidirectional
// overrides (a name could display its extension reversed), path separators and the characters Windows
// refuses in a file name.
const UNSAFE_CHARS = /[\p{Cc}\p{Cs}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069/\\<>:"|?*]/gu;
// An extension to drop: a dot and 1–10 letters/digits at the end ("IMG_1.HEIC"), not "2024.05.01 trip".
const EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
const EDGE_DOTS_SPACES = /^[.\s]+|[.\s]+$/gu;
// Device names Windows will not create a file under, whatever follows the first dot ("CON.jpg", "nul.tar.gz").
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

function safeBaseName(original: string | null | undefined): string {
  const nfc = (original ?? '').normalize('NFC'); // macOS sends Korean names decomposed (NFD)
  const last = nfc.split(/[/\\]/).pop() ?? '';
  let base = last.replace(EXTENSION, '').replace(UNSAFE_CHARS, '_').replace(EDGE_DOTS_SPACES, '');
  if (WINDOWS_RESERVED.test(base)) base = `_${base}`;
  const codePoints = Array.from(base);
  if (codePoints.length > RESULTS_ZIP_MAX_BASE_CODE_POINTS) {
    base = codePoints.slice(0, RESULTS_ZIP_MAX_BASE_CODE_POINTS).join('').replace(EDGE_DOTS_SPACES, '');
  }
  return base;
}

function normalizeExtension(ext: string | undefined): string {
  const bare = (ext ?? '').replace(/^\.+/, '').toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(bare) ? `.${bare}` : '';
}

/**
 * The file names of a batch's results inside the download zip, one per photo, in order.
 *
 * Each is named after the customer's original file: its base name (directory parts, `/` or `\`, dropped),
 * without its extension, NFC-normalized (Korean and other scripts kept as they are), with control
 * characters, lone surrogates, bidirectional overrides, `/`, `\` and the characters Windows refuses
 * (`<>:"|?*`) replaced by `_`, dots and spaces trimmed at both ends, a Windows device name (`CON`, `NUL`,
 * `COM1`…) prefixed with `_`, and cut to {@link RESULTS_ZIP_MAX_BASE_CODE_POINTS} code points (not bytes,
 * not UTF-16 units). An original that leaves nothing (missing, empty, `...`) becomes `photo-<n>`, n the
 * 1-based position. Then comes the result's extension, `exts[i]` (`'jpg'` or `'.jpg'`, lower-cased; none
 * when missing or not 1–10 letters/digits). Names equal ignoring case get ` (2)`, ` (3)`… before the
 * extension (`a.jpg`, `A.jpg` → `a.jpg`, `A (2).jpg`), so that no entry overwrites another on a
 * case-insensitive file system.
 *
 * The names are plain strings; the zip stores them in UTF-8 with general-purpose bit 11 (the language
 * encoding flag) set, as the ZIP format's APPNOTE.TXT 6.3.x (section 4.4.4, appendix D) defines; yazl
 * sets that bit on every entry.
 *
 * Pure; never throws.
 * @param originals the original file names, as uploaded (any may be null/undefined)
 * @param exts the result files' extensions, same order and length as `originals`
 * @returns one unique (case-insensitively) flat file name per original
 */
export function resultZipEntryNames(originals: ReadonlyArray<string | null | undefined>, exts: readonly string[]): string[] {
  const used = new Set<string>();
  return originals.map((original, i) => {
    const base = safeBaseName(original) || `photo-${i + 1}`;
    const ext = normalizeExtension(exts[i]);
    let name = `${base}${ext}`;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n})${ext}`;
    used.add(name.toLowerCase());
    return name;
  });
}

function* chunks(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * A zip of stored objects, streamed: returns the zip's output stream at once and writes the entries in
 * order, each stored uncompressed (JPEG and PNG are compressed already; ZIP method 0) under its `name`,
 * in UTF-8 (APPNOTE.TXT 6.3.x general-purpose bit 11), with modification time `opts.mtime`. The same
 * inputs give the same bytes.
 *
 * Memory: an object is read (`storage.get`, its whole bytes) only when the zip writer reaches its entry,
 * which is after the previous entry's bytes have gone into the output stream; so one object is read at a
 * time, and back-pressure from a slow reader of the output holds the next read back. At most about two
 * objects' bytes are held at once (the one being written, the tail of the previous one in the output's
 * buffer), never the zip.
 *
 * Errors: a failing `storage.get` (e.g. AppError NOT_FOUND) destroys the output stream with that error,
 * so an HTTP response piping it is aborted instead of ending as a shorter zip that looks valid. Aborting
 * `opts.signal` destroys it with the signal's reason and reads nothing more; so does the output being
 * destroyed by its consumer. The caller must listen for `'error'` (as `pipeline` and Fastify's
 * `reply.send(stream)` do).
 * @param storage where the objects are (`get` only is used)
 * @param entries the objects and their file names in the zip, in order (names from {@link resultZipEntryNames})
 * @throws TypeError at once, before anything is read, when a name is empty or has a `/` or `\`
 */
export function streamResultsZip(
  storage: Pick<StorageProvider, 'get'>,
  entries: readonly ResultsZipEntry[],
  opts: StreamResultsZipOptions = {},
): Readable {
  for (const e of entries) {
    if (e.name === '' || /[/\\]/.test(e.name)) throw new TypeError(`Not a flat file name for a zip entry: ${JSON.stringify(e.name)}`);
  }
  const { signal } = opts;
  const mtime = opts.mtime ?? RESULTS_ZIP_DEFAULT_MTIME;
  const zip = new ZipFile();
  // yazl's output is a PassThrough (typed as the bare NodeJS.ReadableStream interface).
  const output = zip.outputStream as PassThrough;

  const fail = (err: Error): void => {
    if (!output.destroyed) output.destroy(err);
  };
  // yazl reports on the ZipFile, not on its output stream.
  zip.on('error', (err: unknown) => fail(asError(err)));
  const stopped = (): boolean => output.destroyed || signal?.aborted === true;

  if (signal) {
    const onAbort = (): void => fail(abortReason(signal));
    if (signal.aborted) {
      onAbort();
      return output;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    output.once('close', () => signal.removeEventListener('abort', onAbort));
  }

  // async: a get that throws instead of rejecting still ends the stream rather than the process.
  const read = async (key: string): Promise<Buffer> => storage.get(key);
  for (const e of entries) {
    zip.addReadStreamLazy(e.name, { mtime, compress: false }, (ready) => {
      if (stopped()) return; // the client went away, or an earlier entry failed: read nothing more
      read(e.key).then(
        (bytes) => {
          if (!stopped()) ready(null, Readable.from(chunks(bytes), { objectMode: false }));
        },
        (err: unknown) => zip.emit('error', asError(err)),
      );
    });
  }
  zip.end();
  return output;
}
