import { BATCH_LIMITS, UPLOAD_LIMITS, isUpscaleBlocked, scaledSum, sizeBadge, upscaleCost, uploadResizeTarget, type SizeBadge } from '@dewy/contracts';

/**
 * Why a picked photo is left out of the batch (nothing is uploaded or charged for it):
 * - `type`: not a jpg, jpeg or png file (001 §5, by extension as the single workspace checks it);
 * - `tooLarge`: over the server's upload limit (UPLOAD_LIMITS.maxBytes, 25 MB);
 * - `unreadable`: the browser could not decode it;
 * - `blocked`: the ≥ 4000 px rule at the chosen scale (001 §5/§9, isUpscaleBlocked);
 * - `overLimit`: past the batch's 50 photos (BATCH_LIMITS.maxPhotos).
 */
export type PhotoIssue = 'type' | 'tooLarge' | 'unreadable' | 'blocked' | 'overLimit';

/** A photo picked on the page, as read locally before anything is uploaded. */
export interface LocalPhoto {
  name: string;
  /** File size in bytes. */
  bytes: number;
  /** Natural pixel size; null while it is being read; 'unreadable' when decoding failed. */
  size: { width: number; height: number } | 'unreadable' | null;
}

/** One photo's place in the batch at the chosen scale. */
export interface PhotoPlan {
  issue: PhotoIssue | null;
  /** The size it is uploaded at (after the 001 §5 resize of large photos); null until read. */
  upload: { width: number; height: number } | null;
  /** True when the upload resize applies (width + height ≥ 5000). */
  resized: boolean;
  /** The output size at the scale (null until read). */
  output: { width: number; height: number } | null;
  badge: SizeBadge | null;
  /** Credits for this photo at the scale (null until read, or when left out before reading). */
  cost: number | null;
  /** Included and within the balance, counted in order (the server charges in the batch's order). */
  covered: boolean;
}

export interface BatchPlan {
  photos: PhotoPlan[];
  /** Photos that go into the batch. */
  included: number;
  /** Credits for every included photo. */
  total: number;
  /** How many of the included photos, in order, the balance pays for (the rest are refused for credits). */
  covered: number;
  /** Credits charged for the covered photos. */
  coveredTotal: number;
  /** Some photo is still being read: the plan is not final. */
  reading: boolean;
}

const ACCEPTED_EXTENSIONS = ['jpg', 'jpeg', 'png'];

/** Only jpg, jpeg and png by extension (001 §5, as the single workspace accepts them). */
export function isAcceptedName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && ACCEPTED_EXTENSIONS.includes(name.slice(dot + 1).toLowerCase());
}

/** What can be told from the file alone, before decoding it: its type and its size. */
export function fileIssue(name: string, bytes: number): 'type' | 'tooLarge' | null {
  if (!isAcceptedName(name)) return 'type';
  if (bytes > UPLOAD_LIMITS.maxBytes) return 'tooLarge';
  return null;
}

/** The size a photo is uploaded at: large photos are resized as in the single workspace (001 §5). */
export function uploadSizeOf(width: number, height: number): { width: number; height: number; resized: boolean } {
  const target = uploadResizeTarget(width, height);
  return target ? { ...target, resized: true } : { width, height, resized: false };
}

/**
 * The batch at a scale and a balance (decision 040 §4): each photo's reason to be left out, its upload
 * and output size, size badge and cost; the total of the included photos; how many of them the balance
 * covers in order (once one is not covered the server refuses it and every photo after it).
 * @param balance the user's credits now
 */
export function planBatch(photos: readonly LocalPhoto[], scale: number, balance: number): BatchPlan {
  let included = 0;
  let total = 0;
  let covered = 0;
  let coveredTotal = 0;
  let stillCovering = true;
  let reading = false;
  const out = photos.map((photo): PhotoPlan => {
    const none: PhotoPlan = { issue: null, upload: null, resized: false, output: null, badge: null, cost: null, covered: false };
    const early = fileIssue(photo.name, photo.bytes);
    if (early) return { ...none, issue: early };
    if (photo.size === 'unreadable') return { ...none, issue: 'unreadable' };
    if (photo.size === null) {
      reading = true;
      return none;
    }
    const up = uploadSizeOf(photo.size.width, photo.size.height);
    const upload = { width: up.width, height: up.height };
    const output = { width: Math.round(up.width * scale), height: Math.round(up.height * scale) };
    const cost = upscaleCost(up.width, up.height, scale);
    const plan: PhotoPlan = { ...none, upload, resized: up.resized, output, badge: sizeBadge(scaledSum(up.width, up.height, scale)), cost };
    if (isUpscaleBlocked(up.width, up.height, scale)) return { ...plan, issue: 'blocked' };
    if (included >= BATCH_LIMITS.maxPhotos) return { ...plan, issue: 'overLimit' };
    included += 1;
    total += cost;
    if (stillCovering && coveredTotal + cost <= balance) {
      covered += 1;
      coveredTotal += cost;
      return { ...plan, covered: true };
    }
    stillCovering = false;
    return plan;
  });
  return { photos: out, included, total, covered, coveredTotal, reading };
}
