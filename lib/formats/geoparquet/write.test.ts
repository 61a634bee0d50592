import type { Geometry } from "geojson";
import { describe, expect, it } from "vitest";
import type { TFeature } from "@/lib/engine/types";
import { EncodeError } from "../errors";
import { encodeGeoParquet } from "./write";
import { edgeLayer, multiPolygonWithHoles } from "../test-fixtures";
import { decodeWkb, geoMetadata, readParquet, schemaTypes } from "../test-support";

describe("encodeGeoParquet", () => {
  it("writes GeoParquet 1.1 `geo` metadata", async () => {
    const { body, featureCount, geo } = await encodeGeoParquet(edgeLayer());
    expect(featureCount).toBe(4);
    const { metadata } = await readParquet(body, { raw: true });
    const written = geoMetadata(metadata);
    expect(written).toEqual(geo);
    expect(written).toEqual({
      version: "1.1.0",
      primary_column: "geometry",
      columns: {
        geometry: {
          encoding: "WKB",
          geometry_types: ["MultiPolygon", "Point", "Polygon"],
          bbox: [-20.5, -30.25, 101, 52.520008],
        },
      },
    });
  });

  it("writes property columns (union, first-seen order) with inferred types and WKB geometry last", async () => {
    const { body } = await encodeGeoParquet(edgeLayer());
    const { metadata, rows } = await readParquet(body, { raw: true });
    expect(schemaTypes(metadata)).toEqual({
      "name with space": "BYTE_ARRAY/UTF8",
      count: "INT64",
      big: "INT64",
      ratio: "DOUBLE",
      flag: "BOOLEAN",
      note: "BYTE_ARRAY/UTF8",
      ünïcödé: "BYTE_ARRAY/UTF8",
      mixed: "BYTE_ARRAY/UTF8",
      geometry: "BYTE_ARRAY",
    });
    expect(Object.keys(rows[0])).toEqual(metadata.schema.slice(1).map((e) => e.name));
    const { geometry: _g0, ...first } = rows[0];
    expect(first).toEqual({
      "name with space": "Zürich – 東京 🚀",
      count: 1n,
      big: 2n ** 40n,
      ratio: 1,
      flag: true,
      note: null,
      ünïcödé: null,
      mixed: null,
    });
    expect(rows[1]["name with space"]).toBe('quote " comma, newline\nend');
    expect(rows[1].big).toBe(-(2n ** 53n - 1n));
    expect(rows[1].count).toBe(-(2n ** 31n));
    expect(rows[2]).toMatchObject({ count: null, ratio: 3, ünïcödé: "ok", mixed: "1", geometry: null });
    expect(rows[3]).toMatchObject({ count: 2n ** 31n - 1n, mixed: "one", "name with space": null });
    // raw WKB decoded by an independent decoder
    const layer = edgeLayer();
    rows.forEach((row, i) => {
      const wkb = row.geometry as Uint8Array | null;
      expect(wkb === null ? null : decodeWkb(wkb)).toEqual(layer.features[i].geometry);
    });
    expect(decodeWkb(rows[1].geometry as Uint8Array)).toEqual(multiPolygonWithHoles);
  });

  it("is read as geometry by hyparquet's GeoParquet support", async () => {
    const { body } = await encodeGeoParquet(edgeLayer());
    const { metadata, rows } = await readParquet(body);
    expect(metadata.schema.find((e) => e.name === "geometry")?.logical_type?.type).toBe("GEOMETRY");
    expect(rows.map((r) => r.geometry)).toEqual(edgeLayer().features.map((f) => f.geometry));
  });

  it("writes an empty layer: geometry column only, no bbox, no types", async () => {
    const { body, featureCount } = await encodeGeoParquet({ kind: "features", features: [] });
    expect(featureCount).toBe(0);
    const { metadata, rows } = await readParquet(body, { raw: true });
    expect(rows).toEqual([]);
    expect(schemaTypes(metadata)).toEqual({ geometry: "BYTE_ARRAY" });
    expect(geoMetadata(metadata)).toEqual({
      version: "1.1.0",
      primary_column: "geometry",
      columns: { geometry: { encoding: "WKB", geometry_types: [] } },
    });
  });

  it("handles only-null geometries, 3D types and a property named geometry", async () => {
    const features: TFeature[] = [
      { type: "Feature", geometry: null, properties: { geometry: "text", geometry_1: 1 } },
      { type: "Feature", geometry: { type: "Point", coordinates: [1, 2, 3] }, properties: {} },
    ];
    const { body } = await encodeGeoParquet({ kind: "features", features });
    const { metadata, rows } = await readParquet(body, { raw: true });
    expect(metadata.schema.slice(1).map((e) => e.name)).toEqual(["geometry_2", "geometry_1", "geometry"]);
    expect(rows[0]).toEqual({ geometry_2: "text", geometry_1: 1n, geometry: null });
    expect(decodeWkb(rows[1].geometry as Uint8Array)).toEqual({ type: "Point", coordinates: [1, 2, 3] });
    expect(geoMetadata(metadata)).toMatchObject({ columns: { geometry: { geometry_types: ["Point Z"], bbox: [1, 2, 1, 2] } } });

    const allNull = await encodeGeoParquet({ kind: "features", features: [features[0]] });
    const back = await readParquet(allNull.body, { raw: true });
    expect(back.rows[0].geometry).toBeNull();
    expect(geoMetadata(back.metadata)).toMatchObject({ columns: { geometry: { geometry_types: [] } } });
  });

  it("splits features into row groups and keeps bbox over all of them", async () => {
    const features: TFeature[] = Array.from({ length: 2_345 }, (_, i) => ({
      type: "Feature",
      geometry: i % 10 === 0 ? null : ({ type: "Point", coordinates: [i / 100, -i / 100] } as Geometry),
      properties: { i, half: i / 2 },
    }));
    const { body } = await encodeGeoParquet({ kind: "features", features }, { rowGroupRows: 1_000 });
    const { metadata, rows } = await readParquet(body, { raw: true });
    expect(metadata.row_groups.map((g) => g.num_rows)).toEqual([1000n, 1000n, 345n]);
    expect(schemaTypes(metadata)).toMatchObject({ i: "INT64", half: "DOUBLE" });
    expect(geoMetadata(metadata)).toMatchObject({ columns: { geometry: { bbox: [0.01, -23.44, 23.44, -0.01] } } });
    expect(rows).toHaveLength(2_345);
    expect(rows[2_000].geometry).toBeNull();
    expect(decodeWkb(rows[2_344].geometry as Uint8Array)).toEqual({ type: "Point", coordinates: [23.44, -23.44] });
  });

  it("names the feature with an invalid geometry", async () => {
    const features = [
      { type: "Feature", geometry: { type: "Point", coordinates: [0, 0] }, properties: {} },
      { type: "Feature", geometry: { type: "Polygon", coordinates: [1, 2] }, properties: {} },
    ] as unknown as TFeature[];
    await expect(encodeGeoParquet({ kind: "features", features })).rejects.toThrow(EncodeError);
    await expect(encodeGeoParquet({ kind: "features", features })).rejects.toThrow(/feature 1/);
  });
});
