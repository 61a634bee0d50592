/**
 * What a layer list shows of a layer and what a later check of geometry types reads, gathered
 * one feature at a time while an upload streams: the bounding box (RFC 7946 §5 order
 * `[west, south, east, north]` in degrees, over every position's longitude and latitude; no
 * antimeridian handling, as the layer list reads it) and the distinct GeoJSON geometry types
 * (members of a GeometryCollection count as themselves, the collection as "GeometryCollection").
 */
import type { Geometry } from "geojson";
import type { TFeature } from "@/lib/engine/types";

export class LayerSummary {
  private west = Infinity;
  private south = Infinity;
  private east = -Infinity;
  private north = -Infinity;
  private readonly types = new Set<Geometry["type"]>();
  /** Features seen, with or without geometry. */
  count = 0;

  add(feature: TFeature): void {
    this.count++;
    if (feature.geometry) this.addGeometry(feature.geometry);
  }

  addGeometry(g: Geometry): void {
    this.types.add(g.type);
    if (g.type === "GeometryCollection") for (const member of g.geometries) this.addGeometry(member);
    else this.visit(g.coordinates);
  }

  private visit(c: unknown): void {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === "number") {
      const x = c[0];
      const y = c[1] as number;
      if (x < this.west) this.west = x;
      if (x > this.east) this.east = x;
      if (y < this.south) this.south = y;
      if (y > this.north) this.north = y;
      return;
    }
    for (const child of c) this.visit(child);
  }

  /** `[west, south, east, north]`, or `[]` when no feature had a position (as the layer row stores it). */
  bbox(): number[] {
    return Number.isFinite(this.west) ? [this.west, this.south, this.east, this.north] : [];
  }

  /** Distinct geometry types seen, sorted by name. */
  geometryTypes(): Geometry["type"][] {
    return [...this.types].sort();
  }
}
