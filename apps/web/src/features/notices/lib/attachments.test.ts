import { describe, expect, it } from 'vitest';
import { attachmentKey, isImageFile, mergeAttachments, type AttachmentLike } from './attachments';

const file = (name: string, size = 100, lastModified = 1, type = 'image/png'): AttachmentLike => ({ name, size, lastModified, type });

describe('notice attachments (images only, at most 5, duplicates ignored)', () => {
  it('adds images in order', () => {
    const r = mergeAttachments([], [file('a.png'), file('b.jpg', 200, 2, 'image/jpeg')]);
    expect(r.files.map((f) => f.name)).toEqual(['a.png', 'b.jpg']);
    expect(r).toMatchObject({ notImages: [], duplicates: [], overLimit: [] });
  });

  it('refuses files whose type does not start with image', () => {
    const pdf = file('doc.pdf', 10, 1, 'application/pdf');
    const r = mergeAttachments([], [pdf, file('a.png')]);
    expect(r.files.map((f) => f.name)).toEqual(['a.png']);
    expect(r.notImages).toEqual([pdf]);
    expect(isImageFile({ type: '' })).toBe(false);
    expect(isImageFile({ type: 'image/webp' })).toBe(true);
  });

  it('ignores a duplicate by name, size and modified time — against the list and within the batch', () => {
    const a = file('a.png', 100, 5);
    const r = mergeAttachments([a], [file('a.png', 100, 5), file('b.png'), file('b.png')]);
    expect(r.files.map((f) => f.name)).toEqual(['a.png', 'b.png']);
    expect(r.duplicates).toHaveLength(2);
  });

  it('keeps files that share a name but differ in size or modified time', () => {
    const r = mergeAttachments([file('a.png', 100, 5)], [file('a.png', 101, 5), file('a.png', 100, 6)]);
    expect(r.files).toHaveLength(3);
    expect(attachmentKey(file('a.png', 100, 5))).not.toBe(attachmentKey(file('a.png', 100, 6)));
  });

  it('stops at 5 and reports the rest', () => {
    const current = [1, 2, 3, 4].map((i) => file(`${i}.png`));
    const r = mergeAttachments(current, [file('5.png'), file('6.png'), file('7.png')]);
    expect(r.files).toHaveLength(5);
    expect(r.overLimit.map((f) => f.name)).toEqual(['6.png', '7.png']);
  });
});
