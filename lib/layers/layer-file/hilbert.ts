/**
 * Hilbert curve keys for sorting a layer's features, so that features near each other on the
 * map land near each other in the file and a row group covers a compact area (what lets a reader
 * skip row groups by their bbox).
 *
 * The grid: 2^16 x 2^16 cells over lon -180..180 (x, west to east) and lat -90..90 (y, south to
 * north); a feature's key is the Hilbert index of the cell holding the centre of its bbox, an
 * integer in [0, 2^32). Coordinates outside the range are clamped to the edge cells.
 *
 * The index is the classic iterative `xy2d` (Wikipedia, "Hilbert curve", section "Applications
 * and mapping algorithms", after Hamilton / Butz): the curve starts in cell (0, 0), its first
 * step goes north, and it ends in cell (2^16 - 1, 0). No well-kept npm package with this
 * function is installed (flatbush has one but does not export it).
 */

/** Bits per axis of the sorting grid (2^16 cells on each axis). */
export const HILBERT_BITS = 16;
const SIDE = 1 << HILBERT_BITS;

/**
 * Hilbert index of cell (x, y) on a 2^16 x 2^16 grid.
 *
 * @param x column, integer in [0, 65535]
 * @param y row, integer in [0, 65535]
 * @returns the cell's position along the curve, an integer in [0, 2^32)
 */
export function hilbertIndex(x: number, y: number): number {
  let d = 0;
  for (let s = SIDE >>> 1; s > 0; s >>>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    // s * s * 3 reaches 3 * 2^30: kept as a double, not a 32-bit integer
    d += s * s * ((3 * rx) ^ ry);
    // rotate the quadrant so the sub-curve has the standard orientation
    if (ry === 0) {
      if (rx === 1) {
        x = SIDE - 1 - x;
        y = SIDE - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

function cell(value: number, min: number, span: number): number {
  const c = Math.floor(((value - min) / span) * SIDE);
  return c < 0 ? 0 : c >= SIDE ? SIDE - 1 : c;
}

/**
 * Hilbert key of a WGS 84 position (degrees) on the lon/lat grid (see module doc).
 * NaN is treated as the grid's minimum edge.
 */
export function hilbertKeyOfLonLat(lon: number, lat: number): number {
  return hilbertIndex(cell(lon, -180, 360) || 0, cell(lat, -90, 180) || 0);
}

/** Key given to items without a bbox (null or empty geometry): after every real key, so they come last. */
export const NO_BBOX_KEY = 2 ** 32;

/** Hilbert key of the centre of `[xmin, ymin, xmax, ymax]`, or `NO_BBOX_KEY` for null. */
export function hilbertKeyOfBbox(bbox: readonly [number, number, number, number] | null): number {
  if (bbox === null) return NO_BBOX_KEY;
  return hilbertKeyOfLonLat((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
}
