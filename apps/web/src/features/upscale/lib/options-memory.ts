import { readUserEntry, writeUserEntry } from '../../../lib/user-storage';
import { asUpscaleOptions, type UpscaleOptions } from './options';

/**
 * The UI options the page sent, per job id, kept in local storage per user (`upscaleJobOptions:<id>`).
 * The server stores only the request input, where the model index cannot tell every choice apart
 * (index 7 is matte makeup for East Asian and Western women); this keeps what the user picked.
 */
export const JOB_OPTIONS_ENTRY = 'upscaleJobOptions';
/** Jobs remembered per user (oldest dropped first). */
export const JOB_OPTIONS_KEPT = 50;

type Stored = { jobId: string; options: UpscaleOptions }[];

function readAll(userId: number): Stored {
  const raw = readUserEntry(userId, JOB_OPTIONS_ENTRY);
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e: unknown) => {
    if (!e || typeof e !== 'object') return [];
    const { jobId, options } = e as { jobId?: unknown; options?: unknown };
    const valid = asUpscaleOptions(options);
    return typeof jobId === 'string' && valid ? [{ jobId, options: valid }] : [];
  });
}

/** Remember the options a job was started with. */
export function rememberJobOptions(userId: number, jobId: string, options: UpscaleOptions): void {
  const rest = readAll(userId).filter((e) => e.jobId !== jobId);
  writeUserEntry(userId, JOB_OPTIONS_ENTRY, [...rest, { jobId, options }].slice(-JOB_OPTIONS_KEPT));
}

/** The options a job was started with on this browser, if remembered. */
export function recallJobOptions(userId: number, jobId: string | null): UpscaleOptions | null {
  if (!jobId) return null;
  return readAll(userId).find((e) => e.jobId === jobId)?.options ?? null;
}
