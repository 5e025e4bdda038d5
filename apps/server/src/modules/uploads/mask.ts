import sharp from 'sharp';

/**
 * True when an uploaded mask has at least one painted (light) pixel: its brightest grey level is over
 * half. The tools that take a mask (face edit, image edit) refuse an empty one with MASK_EMPTY before
 * charging; it lives with the uploads so that neither tool imports the other (decision 039).
 */
export async function maskHasPaint(mask: Buffer): Promise<boolean> {
  const stats = await sharp(mask).flatten({ background: '#000' }).greyscale().stats();
  return (stats.channels[0]?.max ?? 0) > 127;
}
