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

function polygonRings(rings: Position[][]): Position[][] {
  let out: Position[][] | null = null;
  for (let i = 0; i < rings.length; i++) {
    const oriented = orient(rings[i]!, i > 0);
    if (oriented !== rings[i]) {
      out ??= rings.slice();
      out[i] = oriented;
    }
  }
  return out ?? rings;
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
      let changed = false;
      const polys = geometry.coordinates.map((p) => {
        const rings = polygonRings(p);
        if (rings !== p) changed = true;
        return rings;
      });
      return (changed ? { ...geometry, coordinates: polys } : geometry) as G;
    }
    case "GeometryCollection": {
      let changed = false;
      const geometries = geometry.geometries.map((g) => {
        const o = rightHandRule(g);
        if (o !== g) changed = true;
        return o;
      });
      return (changed ? { ...geometry, geometries } : geometry) as G;
    }
    default:
      return geometry;
  }
}
