import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FeatureCollection, MultiPolygon, Polygon, Position } from "geojson";
import { basemapCountriesJson } from "./basemap";

const polygonsOf = (g: Polygon | MultiPolygon) => (g.type === "Polygon" ? [g.coordinates] : g.coordinates);

describe("the maps' basemap", () => {
  it("has every country of world-atlas 1:110m, by name, within [-180, 180] × [-90, 90], none jumping across the antimeridian", async () => {
    const fc = JSON.parse(await basemapCountriesJson()) as FeatureCollection<Polygon | MultiPolygon, { name: string }>;
    // The independent count: the package's own list of geometries.
    const topo = JSON.parse(readFileSync("node_modules/world-atlas/countries-110m.json", "utf8"));
    const names = (topo.objects.countries.geometries as { properties: { name: string } }[]).map((g) => g.properties.name);
    expect(fc.features.map((f) => f.properties.name)).toEqual(names);
    expect(names).toContain("Russia");
    for (const f of fc.features) {
      for (const rings of polygonsOf(f.geometry))
        for (const ring of rings) {
          ring.forEach((p: Position, i) => {
            expect(Math.abs(p[0]!), f.properties.name).toBeLessThanOrEqual(180);
            expect(Math.abs(p[1]!), f.properties.name).toBeLessThanOrEqual(90);
            // A MapLibre streak across the whole map: an edge longer than half the world (along a
            // pole, where Antarctica is closed, it is off the map).
            const q = ring[i - 1];
            if (q && !(Math.abs(p[1]!) === 90 && q[1] === p[1])) expect(Math.abs(p[0]! - ring[i - 1]![0]!), f.properties.name).toBeLessThan(180);
          });
        }
    }
  });

  it("is small enough to load with every map (under 250 KB of JSON)", async () => {
    expect((await basemapCountriesJson()).length).toBeLessThan(250_000);
  });
});
