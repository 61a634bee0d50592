import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { booleanPointInPolygon, booleanValid, kinks } from "@turf/turf";
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { Geometry, MultiPolygon, Polygon, Position } from "geojson";
// JSTS is JTS in JavaScript: the validity rules of GEOS (GeoPandas, PostGIS, DuckDB), used here
// as the independent judge. Installed with Turf (@turf/buffer → @turf/jsts → jsts); no types.
// @ts-expect-error jsts ships no type declarations
import GeoJSONReader from "jsts/org/locationtech/jts/io/GeoJSONReader.js";
// @ts-expect-error jsts ships no type declarations
import IsValidOp from "jsts/org/locationtech/jts/operation/valid/IsValidOp.js";
import { polygonProblems } from "@/lib/geo/polygon-problems";
import { loadWorldCountries } from "./real-data";

const reader = new GeoJSONReader();
const jts = (g: Geometry): string | null => {
  const op = new IsValidOp(reader.read(g));
  return op.isValid() ? null : String(op.getValidationError());
};
const polygonsOf = (g: Polygon | MultiPolygon) => (g.type === "Polygon" ? [g.coordinates] : g.coordinates);

describe("the demo's Natural Earth countries", () => {
  const require = createRequire(import.meta.url);
  const topo = require("world-atlas/countries-50m.json") as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const asGiven = feature(topo, topo.objects.countries).features;
  const converted = loadWorldCountries().features;

  it("as given: Russia, Fiji and Antarctica cross the antimeridian, by our check and by JTS", () => {
    const bad = asGiven.filter((f) => polygonProblems(f.geometry).length > 0).map((f) => f.properties!.name);
    expect(bad.sort()).toEqual(["Antarctica", "Fiji", "Russia"]);
    expect(
      asGiven
        .filter((f) => jts(f.geometry) !== null)
        .map((f) => f.properties!.name)
        .sort(),
    ).toEqual(["Antarctica", "Fiji", "Russia"]);
    const russia = asGiven.find((f) => f.properties!.name === "Russia")!;
    expect(polygonProblems(russia.geometry)[0]).toMatch(/^polygon \d+: ring 0 crosses the antimeridian as given/);
  });

  it("after conversion: all 241 are valid by our check, by JTS, and each polygon by Turf", () => {
    expect(converted.map((f) => f.properties.name)).toEqual(asGiven.map((f) => f.properties!.name));
    for (const f of converted) {
      const name = String(f.properties.name);
      expect(polygonProblems(f.geometry), name).toEqual([]);
      expect(jts(f.geometry!), name).toBeNull();
      const g = f.geometry as Polygon | MultiPolygon;
      // Turf's booleanValid refuses the polygons of a MultiPolygon that touch at one vertex
      // (Netherlands, Canada, Brunei: valid by OGC and JTS), so each polygon is checked alone,
      // with kinks for what booleanValid does not look for (a ring crossing itself).
      for (const coordinates of polygonsOf(g)) {
        const p: Polygon = { type: "Polygon", coordinates };
        expect(booleanValid(p), name).toBe(true);
        expect(kinks(p).features, name).toEqual([]);
      }
    }
  });

  it("after conversion: every position lies within [-180, 180] × [-90, 90]", () => {
    const outside = converted.flatMap((f) =>
      polygonsOf(f.geometry as Polygon | MultiPolygon)
        .flat(2)
        .filter((p) => !(Math.abs(p[0]!) <= 180 && Math.abs(p[1]!) <= 90))
        .map((p) => `${f.properties.name}: ${p.join(", ")}`),
    );
    expect(outside).toEqual([]);
  });

  it("after conversion: the cut pieces cover what the rings given cover, read with continuous longitudes", () => {
    // Independent of the cut: each polygon as given, its longitudes made continuous (so a ring
    // that crosses 180° runs on to 190°), holds a point near the antimeridian at x or x + 360
    // exactly when the converted country holds it at x.
    const unwrapped = (rings: Position[][]): Polygon => {
      let prev = rings[0]![0]![0]!;
      return { type: "Polygon", coordinates: rings.map((r) => r.map(([x, y]) => { let u = x!; while (u - prev > 180) u -= 360; while (prev - u > 180) u += 360; prev = u; return [u, y!]; })) }; // prettier-ignore
    };
    for (const [name, south, north] of [
      ["Russia", 62, 72],
      ["Fiji", -22, -15],
    ] as const) {
      const given = polygonsOf(asGiven.find((f) => f.properties!.name === name)!.geometry as MultiPolygon).map(unwrapped);
      const mine = converted.find((f) => f.properties.name === name)!.geometry as MultiPolygon;
      let inside = 0;
      const wrong: string[] = [];
      for (let x = 170.05; x < 190; x += 0.1)
        for (let y = south + 0.013; y < north; y += 0.1) {
          const expected = given.some((g) => booleanPointInPolygon([x, y], g) || booleanPointInPolygon([x - 360, y], g));
          if (booleanPointInPolygon([x > 180 ? x - 360 : x, y], mine) !== expected) wrong.push(`${x}, ${y}: expected ${expected ? "inside" : "outside"}`);
          if (expected) inside++;
        }
      expect(wrong, name).toEqual([]);
      expect(inside, name).toBeGreaterThan(50);
    }
  });

  it("after conversion: Antarctica holds the South Pole and everything south of its coast, and no open sea", () => {
    const antarctica = converted.find((f) => f.properties.name === "Antarctica")!.geometry as MultiPolygon;
    // Its coast reaches no further south than 85.2° S (Ross and Ronne ice shelves included).
    for (let x = -180; x <= 180; x += 7.5) {
      expect(booleanPointInPolygon([x, -86], antarctica), `${x}, -86`).toBe(true);
      expect(booleanPointInPolygon([x, -89.9999], antarctica), `${x}, -89.9999`).toBe(true);
      expect(booleanPointInPolygon([x, -55], antarctica), `${x}, -55`).toBe(false);
    }
  });
});
