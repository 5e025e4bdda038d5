/**
 * One tile of a tiled super-resolution pass: the core `[cx0,cx1) × [cy0,cy1)` that the tile writes to
 * the output, and the read region `[rx0,rx1) × [ry0,ry1)` = core plus up to `overlap` px of context on
 * each side (cropped away after the model ran, so tiles show no seams). Units: input pixels.
 */
export interface Tile {
  cx0: number;
  cy0: number;
  cx1: number;
  cy1: number;
  rx0: number;
  ry0: number;
  rx1: number;
  ry1: number;
  /** Read-region width and height. */
  tw: number;
  th: number;
}

/** The tiles covering a `width × height` image in row-major order (tile px core, overlap px context). */
export function tileGrid(width: number, height: number, tile: number, overlap: number): Tile[] {
  const tiles: Tile[] = [];
  for (let cy0 = 0; cy0 < height; cy0 += tile) {
    for (let cx0 = 0; cx0 < width; cx0 += tile) {
      const cx1 = Math.min(width, cx0 + tile), cy1 = Math.min(height, cy0 + tile);
      const rx0 = Math.max(0, cx0 - overlap), ry0 = Math.max(0, cy0 - overlap);
      const rx1 = Math.min(width, cx1 + overlap), ry1 = Math.min(height, cy1 + overlap);
      tiles.push({ cx0, cy0, cx1, cy1, rx0, ry0, rx1, ry1, tw: rx1 - rx0, th: ry1 - ry0 });
    }
  }
  return tiles;
}
