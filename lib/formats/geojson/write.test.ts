import type { FeatureCollection } from "geojson";
import { describe, expect, it } from "vitest";
import type { TFeature } from "@/lib/engine/types";
import { EncodeError } from "../errors";
import { encodeGeoJson } from "./write";
import { edgeLayer, multiPolygonWithHoles } from "../test-fixtures";

function parse(body: Uint8Array): FeatureCollection {
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as FeatureCollection;
}

describe("encodeGeoJson", () => {
  it("writes an RFC 7946 FeatureCollection that JSON.parse reads back", async () => {
    const layer = edgeLayer();
    const { body, featureCount } = await encodeGeoJson(layer);
    expect(featureCount).toBe(4);
    const fc = parse(body);
    expect(fc.type).toBe("FeatureCollection");
    expect(fc.features).toHaveLength(4);
    fc.features.forEach((feature, i) => {
      expect(feature.type).toBe("Feature");
      expect(feature.geometry).toEqual(layer.features[i].geometry);
      expect(feature.properties).toEqual(layer.features[i].properties);
    });
    expect(fc.features[0].id).toBe("a-1");
    expect(fc.features[1]).not.toHaveProperty("id");
    expect(fc.features[2].geometry).toBeNull();
    expect(fc.features[1].geometry).toEqual(multiPolygonWithHoles);
    expect(fc.features[0].properties?.["name with space"]).toBe("Zürich – 東京 🚀");
    expect(fc.features[0].properties?.big).toBe(2 ** 40);
  });

  it("writes coordinates as given (no rounding) and no BOM", async () => {
    const coordinates = [0.1 + 0.2, -179.99999999999997];
    const { body } = await encodeGeoJson({
      kind: "features",
      features: [{ type: "Feature", geometry: { type: "Point", coordinates }, properties: {} }],
    });
    expect(body[0]).toBe("{".charCodeAt(0));
    const g = parse(body).features[0].geometry;
    expect(g?.type === "Point" && g.coordinates).toEqual(coordinates);
  });

  it("writes an empty layer as an empty FeatureCollection", async () => {
    const { body, featureCount } = await encodeGeoJson({ kind: "features", features: [] });
    expect(featureCount).toBe(0);
    expect(parse(body)).toEqual({ type: "FeatureCollection", features: [] });
  });

  it("stays valid JSON across chunk boundaries (40,000 features)", async () => {
    const features: TFeature[] = Array.from({ length: 40_000 }, (_, i) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [i / 1000, -i / 1000] },
      properties: { i, label: `f${i} ✓` },
    }));
    const fc = parse((await encodeGeoJson({ kind: "features", features })).body);
    expect(fc.features).toHaveLength(40_000);
    expect(fc.features[39_999].properties).toEqual({ i: 39_999, label: "f39999 ✓" });
    expect(fc.features[16_384].geometry).toEqual({ type: "Point", coordinates: [16.384, -16.384] });
  });

  it("writes bigints as numbers when safe, else strings", async () => {
    const { body } = await encodeGeoJson({
      kind: "features",
      features: [{ type: "Feature", geometry: null, properties: { a: 5n, b: 2n ** 70n } }],
    });
    expect(parse(body).features[0].properties).toEqual({ a: 5, b: (2n ** 70n).toString() });
  });

  it("reports the failing feature and honours abort", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const features: TFeature[] = [
      { type: "Feature", geometry: null, properties: {} },
      { type: "Feature", geometry: null, properties: cyclic },
    ];
    await expect(encodeGeoJson({ kind: "features", features })).rejects.toThrow(EncodeError);
    await expect(encodeGeoJson({ kind: "features", features })).rejects.toThrow(/feature 1/);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(encodeGeoJson({ kind: "features", features: [] }, { signal: controller.signal })).rejects.toThrow("stop");
  });
});
