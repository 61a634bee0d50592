/**
 * Plain 2D points as one column: the x, y of each point in turn in a `Float64Array`. The layer
 * reader's row-group cache (lib/layers/layer-file/read-layer-file.ts) and a result's lossless
 * copy (lib/runs/result-spill.ts) keep points so: no object per point to hold, walk or serialise.
 * Only geometries that such a column gives back exactly qualify: `{type: "Point", coordinates:
 * [x, y]}`, these two members in this order, two numbers (NaN, -0 and the rest kept bit for bit).
 */
import type { Geometry, Point } from "geojson";

/** The x, y of `geometries` when every one is a plain 2D Point (see the module doc), else undefined. */
export function pointColumn(geometries: readonly (Geometry | null | undefined)[]): Float64Array | undefined {
  const xy = new Float64Array(geometries.length * 2);
  for (let i = 0; i < geometries.length; i++) {
    const g = geometries[i];
    if (g?.type !== "Point") return undefined;
    const [x, y] = g.coordinates;
    const keys = Object.keys(g);
    if (g.coordinates.length !== 2 || typeof x !== "number" || typeof y !== "number" || keys.length !== 2 || keys[0] !== "type") return undefined;
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
  }
  return xy;
}

/** Point `i` of a column made by `pointColumn`, as a new geometry. */
export function pointAt(xy: Float64Array, i: number): Point {
  return { type: "Point", coordinates: [xy[2 * i]!, xy[2 * i + 1]!] };
}
