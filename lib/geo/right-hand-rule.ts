/**
 * RFC 7946 §3.1.6 winding order for output: exterior rings counterclockwise, holes clockwise
 * (the "right-hand rule"). Ring orientation is decided by Turf `booleanClockwise` (the
 * shoelace sum); a ring in the wrong direction is reversed.
 *
 * The geometry passed in is never modified (engine layers are shared and cached across
 * runs): a new geometry is returned, and only the rings that had to be reversed are new
 * arrays, so an already conforming geometry costs one pass over its positions and no copies.
 * Geometry types without rings (points, lines) and `null` are returned as they are;
 * GeometryCollection members are handled one by one.
 */
import { booleanClockwise } from "@turf/turf";
import type { Geometry, Position } from "geojson";

function orient(ring: Position[], clockwise: boolean): Position[] {
  return ring.length >= 4 && booleanClockwise(ring) !== clockwise ? ring.slice().reverse() : ring;
}

/** `list` with `fn` applied to each item; the same array when `fn` returned every item itself. */
function mapChanged<T>(list: T[], fn: (item: T, index: number) => T): T[] {
  let out: T[] | null = null;
  for (let i = 0; i < list.length; i++) {
    const mapped = fn(list[i]!, i);
    if (mapped !== list[i]) {
      out ??= list.slice();
      out[i] = mapped;
    }
  }
  return out ?? list;
}

function polygonRings(rings: Position[][]): Position[][] {
  return mapChanged(rings, (ring, i) => orient(ring, i > 0));
}

/** `geometry` with RFC 7946 ring orientation; the same object when nothing had to change. */
export function rightHandRule<G extends Geometry | null | undefined>(geometry: G): G {
  if (!geometry) return geometry;
  switch (geometry.type) {
    case "Polygon": {
      const rings = polygonRings(geometry.coordinates);
      return (rings === geometry.coordinates ? geometry : { ...geometry, coordinates: rings }) as G;
    }
    case "MultiPolygon": {
      const polys = mapChanged(geometry.coordinates, polygonRings);
      return (polys === geometry.coordinates ? geometry : { ...geometry, coordinates: polys }) as G;
    }
    case "GeometryCollection": {
      const geometries = mapChanged(geometry.geometries, rightHandRule);
      return (geometries === geometry.geometries ? geometry : { ...geometry, geometries }) as G;
    }
    default:
      return geometry;
  }
}
