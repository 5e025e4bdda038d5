/**
 * Index lists into the 468/478-point MediaPipe face mesh that @vladmandic/human returns, turned into
 * closed polygons. Indices follow MediaPipe's canonical face model (FACEMESH_* connection sets); "left"
 * and "right" are the SUBJECT's own left/right (so the left eyebrow appears on the image's right side).
 */

export type Point = [number, number];

/** Closed polygons (pixel coordinates) for one face. */
export interface FaceRegions {
  faceOval: Point[];
  upperLip: Point[];
  lowerLip: Point[];
  leftEyebrow: Point[];
  rightEyebrow: Point[];
  leftEye: Point[];
  rightEye: Point[];
  nose: Point[];
  nostrils: Point[];
  /** Opening between the lips (teeth, tongue): never skin. */
  innerMouth: Point[];
}

const FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];
// Upper lip = outer upper contour (61 → 291) then inner upper contour back (308 → 78).
const UPPER_LIP = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 308, 415, 310, 311, 312, 13, 82, 81, 80, 191, 78];
const LOWER_LIP = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95, 78];
const INNER_MOUTH = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95];
const RIGHT_EYEBROW = [70, 63, 105, 66, 107, 55, 65, 52, 53, 46];
const LEFT_EYEBROW = [300, 293, 334, 296, 336, 285, 295, 282, 283, 276];
const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];
// The mesh has no nose outline; the convex hull of bridge, wings and base points is a stable stand-in.
const NOSE_POINTS = [168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 193, 417, 122, 351, 196, 419, 3, 248, 236, 456, 198, 420, 131, 360, 49, 279, 48, 278, 219, 439, 59, 289, 60, 290, 64, 294, 98, 327, 97, 326, 240, 460, 75, 305, 166, 392, 79, 309];
const NOSTRIL_POINTS = [48, 64, 98, 97, 2, 326, 327, 294, 278, 240, 460, 99, 328, 75, 305, 60, 290, 20, 250];

/** Landmarks used as blush centres (MediaPipe cheek points, subject right / left). */
export const CHEEK_POINTS = { right: 205, left: 425 } as const;

function pick(mesh: ReadonlyArray<readonly number[]>, idx: readonly number[]): Point[] {
  return idx.map((i) => {
    const p = mesh[i];
    if (!p || p.length < 2) throw new Error(`FACE_MESH_INCOMPLETE: landmark ${i} missing`);
    return [p[0] ?? 0, p[1] ?? 0];
  });
}

/** Andrew's monotone-chain convex hull; returns the hull counter-clockwise without repeating the first point. */
export function convexHull(points: readonly Point[]): Point[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** Builds every region polygon from a mesh of at least 468 points (x, y in pixels; z ignored). */
export function regionsFromMesh(mesh: ReadonlyArray<readonly number[]>): FaceRegions {
  return {
    faceOval: pick(mesh, FACE_OVAL),
    upperLip: pick(mesh, UPPER_LIP),
    lowerLip: pick(mesh, LOWER_LIP),
    leftEyebrow: pick(mesh, LEFT_EYEBROW),
    rightEyebrow: pick(mesh, RIGHT_EYEBROW),
    leftEye: pick(mesh, LEFT_EYE),
    rightEye: pick(mesh, RIGHT_EYE),
    nose: convexHull(pick(mesh, NOSE_POINTS)),
    nostrils: convexHull(pick(mesh, NOSTRIL_POINTS)),
    innerMouth: pick(mesh, INNER_MOUTH),
  };
}
