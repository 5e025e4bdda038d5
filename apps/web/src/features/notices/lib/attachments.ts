import { NOTICES } from '@dewy/contracts';

/** The file facts the attachment rules look at (a `File` has them all). */
export interface AttachmentLike {
  name: string;
  size: number;
  type: string;
  lastModified: number;
}

export interface AttachmentMerge<F extends AttachmentLike> {
  /** The attachment list after adding what could be added. */
  files: F[];
  /** Files refused because they are not images. */
  notImages: F[];
  /** Files ignored because the same file (name, size, modified time) is already attached. */
  duplicates: F[];
  /** Images refused because the list already holds the maximum. */
  overLimit: F[];
}

/** The identity of an attachment for duplicate detection (spec 002 §5: same name, size and modified time). */
export function attachmentKey(f: AttachmentLike): string {
  return `${f.name}\u0000${f.size}\u0000${f.lastModified}`;
}

/** True for an image file (its type starts with `image`, spec 002 §5). */
export function isImageFile(f: Pick<AttachmentLike, 'type'>): boolean {
  return f.type.startsWith('image');
}

/**
 * Adds chosen files to the attachment list under spec 002 §5: images only, at most 5, duplicates
 * (same name, size and modified time — against the list and within the new batch) ignored. Order is kept.
 */
export function mergeAttachments<F extends AttachmentLike>(current: readonly F[], incoming: readonly F[], max: number = NOTICES.maxAttachments): AttachmentMerge<F> {
  const files = [...current];
  const seen = new Set(current.map(attachmentKey));
  const out: AttachmentMerge<F> = { files, notImages: [], duplicates: [], overLimit: [] };
  for (const f of incoming) {
    if (!isImageFile(f)) out.notImages.push(f);
    else if (seen.has(attachmentKey(f))) out.duplicates.push(f);
    else if (files.length >= max) out.overLimit.push(f);
    else {
      files.push(f);
      seen.add(attachmentKey(f));
    }
  }
  return out;
}
