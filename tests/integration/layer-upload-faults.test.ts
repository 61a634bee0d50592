/**
 * Layer uploads that QA found mishandled, through the staged upload and the running worker's
 * import job (lib/layers/parse, lib/layers/import-process.ts), each answered as the upload route
 * answers (`importFailureError`): integers a double cannot hold kept as their text and a preview
 * that can always be written as JSON; NUL characters in keys and headers, nesting past 64
 * levels, numbers that are not finite, bytes that are not UTF-8, a CRS that is not longitude/
 * latitude, invalid polygons inside a GeometryCollection, bad WKB and a semicolon-separated CSV
 * refused with a 4xx naming the feature or row and column (never a 500); CSV rows named from 1,
 * in tables and points alike.
 */
import { afterAll, describe, expect, it } from "vitest";
import { geojsonToWkb, parquetWriteBuffer } from "hyparquet-writer";
import { blobAsyncBuffer, blobStore } from "@/lib/blobs";
import type { TFeature, TFeatureSet, TRow } from "@/lib/engine/types";
import { ERROR_STATUS } from "@/lib/errors";
import { openLayerFile, readLayerBatches } from "@/lib/layers/layer-file";
import { layerPreview } from "@/lib/layers/layer-preview";
import { sql } from "./helpers";
import { suffix } from "./contract-helpers";
import { designWorkspace, expectAppError, importLayer } from "./design-helpers";

afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

const enc = (s: string) => new TextEncoder().encode(s);
const point = (x: number, y: number, props: Record<string, unknown> = {}) => ({
  type: "Feature",
  properties: props,
  geometry: { type: "Point", coordinates: [x, y] },
});
const fc = (features: unknown[], extra: Record<string, unknown> = {}) => enc(JSON.stringify({ type: "FeatureCollection", ...extra, features }));

/** The layer's items as stored, in the layer's own order when it has one (tables), else the file's. */
async function stored(ws: { workspaceId: string }, id: string): Promise<(TFeature | TRow)[]> {
  const { rows } = await sql().query(`SELECT "fileKey" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id]);
  const file = await openLayerFile(await blobAsyncBuffer(blobStore(), rows[0].fileKey));
  const items: (TFeature | TRow)[] = [];
  for await (const batch of readLayerBatches(file, null)) items.push(...(Array.isArray(batch) ? batch : (batch as TFeatureSet).features));
  return items;
}

/** Uploads `bytes` expecting a refusal: the AppError the route answers with, after checking it is a client error. */
async function refused(ws: { workspaceId: string }, format: "geojson" | "geojsonseq" | "csv" | "geoparquet", bytes: Uint8Array) {
  const err = await expectAppError(importLayer(ws, { id: `bad-${suffix()}`, name: "Bad", format, bytes }), "validation_failed");
  expect(ERROR_STATUS[err.code]).toBe(422);
  return err;
}

const byName = (items: (TFeature | TRow)[]) => new Map(items.map((i) => [String("properties" in i ? (i as TFeature).properties.name : i.name), i]));

describe("integers a double cannot hold (QA D1)", () => {
  it("are kept as their decimal text from CSV and GeoJSON; a CSV 1e18 stays a number; the preview writes as JSON", async () => {
    const ws = await designWorkspace();
    const csv = await importLayer(ws, {
      id: `id64-${suffix()}`,
      name: "Ids",
      format: "csv",
      bytes: enc("geonameid,name,lon,lat,big\n1234567890123456789,a,1,2,1e18\n2,b,3,4,5\n"),
    });
    const csvItems = byName(await stored(ws, csv.layerId));
    expect((csvItems.get("a") as TFeature).properties).toEqual({ geonameid: "1234567890123456789", name: "a", big: 1e18 });
    expect((csvItems.get("b") as TFeature).properties).toEqual({ geonameid: "2", name: "b", big: 5 });
    const csvPreview = JSON.parse(JSON.stringify(await layerPreview(ws, csv.layerId)));
    expect(csvPreview.geojson.features.map((f: TFeature) => f.properties.big).sort()).toEqual([1e18, 5]);

    const geojson = await importLayer(ws, {
      id: `big-${suffix()}`,
      name: "Big",
      format: "geojson",
      bytes: enc(
        '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"big","population":9007199254740993},"geometry":{"type":"Point","coordinates":[1,2]}},{"type":"Feature","properties":{"name":"small","population":5},"geometry":{"type":"Point","coordinates":[3,4]}}]}',
      ),
    });
    const items = byName(await stored(ws, geojson.layerId));
    expect((items.get("big") as TFeature).properties.population).toBe("9007199254740993");
    expect(JSON.stringify(await layerPreview(ws, geojson.layerId))).toContain('"population":"9007199254740993"');
  });

  it("in a layer file written before, an INT64 beyond 2^53 is previewed as its decimal text (the preview answered 500)", async () => {
    const ws = await designWorkspace();
    const id = `old-${suffix()}`;
    const file = parquetWriteBuffer({
      columnData: [{ name: "n", data: [1n, 2n ** 60n + 1n], type: "INT64" }],
      kvMetadata: [{ key: "flow-api:layer-file", value: JSON.stringify({ kind: "table" }) }],
    });
    const fileKey = `layers/${ws.workspaceId}/${id}/old-${suffix()}.parquet`;
    await blobStore().put(
      fileKey,
      (async function* () {
        yield new Uint8Array(file);
      })(),
    );
    await sql().query(
      `INSERT INTO layer (id, "workspaceId", name, kind, "itemCount", "fileKey", columns, "updatedAt") VALUES ($1, $2, 'Old', 'table', 2, $3, $4, now())`,
      [id, ws.workspaceId, fileKey, JSON.stringify([{ name: "n", type: "int64" }])],
    );
    const preview = await layerPreview(ws, id);
    expect(JSON.parse(JSON.stringify(preview))).toMatchObject({ kind: "table", rows: [{ n: 1 }, { n: "1152921504606846977" }] });
  });
});

describe("faults refused with 422, naming the feature or row and column", () => {
  it("a NUL in a GeoJSON property key or a CSV header (QA D2: 500 after retries), stored and answered intact", async () => {
    const ws = await designWorkspace();
    const key = await refused(ws, "geojson", fc([point(1, 2, { "a\u0000": "x" })]));
    expect(key.errors).toEqual([
      {
        field: "/file/features/0/properties/a\\u0000",
        code: "nul_character",
        message: 'Feature 0, property "a\\u0000": the name contains a NUL character (\\u0000), which cannot be stored; rename it.',
      },
    ]);
    const header = await refused(ws, "csv", enc("na\u0000me,lon,lat\nA,1,2\n"));
    expect(header.errors).toEqual([
      {
        field: "/file",
        code: "nul_character",
        message: 'Column 1 of the header ("na\\u0000me") contains a NUL character (\\u0000), which cannot be stored; rename it.',
      },
    ]);
  });

  it("properties nested more than 64 levels (QA D3: 500)", async () => {
    const ws = await designWorkspace();
    let deep: unknown = { v: 1 };
    for (let i = 1; i < 70; i++) deep = { n: deep };
    const err = await refused(ws, "geojson", fc([point(1, 2, { deep })]));
    expect(err.errors).toEqual([
      expect.objectContaining({
        field: `/file/features/0/properties/deep${"/n".repeat(63)}`,
        code: "too_deep",
        message: expect.stringMatching(/more than 64 levels deep/),
      }),
    ]);
  });

  it("an invalid polygon inside a GeometryCollection (QA D5: accepted)", async () => {
    const ws = await designWorkspace();
    const bowTie = [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]; // prettier-ignore
    const err = await refused(
      ws,
      "geojson",
      fc([{ type: "Feature", properties: {}, geometry: { type: "GeometryCollection", geometries: [{ type: "Polygon", coordinates: bowTie }] } }]),
    );
    expect(err.errors).toEqual([
      {
        field: "/file/features/0/geometry/geometries/0",
        code: "invalid_polygon",
        message: "Feature 0 is not a valid polygon: geometries/0: ring 0 crosses itself near (5, 5).",
      },
    ]);
  });

  it("bytes that are not UTF-8 in a CSV or a GeoJSON sequence (QA D6: stored as U+FFFD)", async () => {
    const ws = await designWorkspace();
    const csv = await refused(ws, "csv", Buffer.concat([enc("name,lon,lat\nZ"), Buffer.from([0xfc]), enc("rich,8.5,47.4\n")]));
    expect(csv.errors).toEqual([
      {
        field: "/file",
        code: "invalid_encoding",
        message: "The CSV file is not UTF-8 text: the byte 0xFC at line 2 (byte offset 14) is not UTF-8; save it as UTF-8.",
      },
    ]);
    const seq = await refused(
      ws,
      "geojsonseq",
      Buffer.concat([enc('{"type":"Feature","properties":{"s":"caf'), Buffer.from([0xe9]), enc('"},"geometry":null}\n')]),
    );
    expect(seq.errors!.map((e) => [e.field, e.code])).toEqual([["/file/features/0", "invalid_encoding"]]);
  });

  it("a CRS other than longitude/latitude on WGS 84, in GeoParquet metadata or a GeoJSON crs member (QA D7: read as degrees); CRS84 passes", async () => {
    const ws = await designWorkspace();
    const geo = (crs: unknown) =>
      JSON.stringify({ version: "1.1.0", primary_column: "geometry", columns: { geometry: { encoding: "WKB", geometry_types: ["Point"], crs } } });
    const parquet = (crs: unknown) =>
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: "id", data: [1], type: "INT32" },
            { name: "geometry", data: [geojsonToWkb({ type: "Point", coordinates: [95, 60] })], type: "BYTE_ARRAY" },
          ],
          kvMetadata: [{ key: "geo", value: geo(crs) }],
        }),
      );
    const mercator = await refused(
      ws,
      "geoparquet",
      parquet({ type: "ProjectedCRS", name: "WGS 84 / Pseudo-Mercator", id: { authority: "EPSG", code: 3857 } }),
    );
    expect(mercator.errors).toEqual([
      { field: "/file", code: "unsupported_crs", message: expect.stringMatching(/^The geometry column "geometry" declares the CRS EPSG:3857/) },
    ]);
    expect(
      await importLayer(ws, { id: `crs84-${suffix()}`, name: "CRS84", format: "geoparquet", bytes: parquet({ id: { authority: "OGC", code: "CRS84" } }) }),
    ).toMatchObject({ itemCount: 1 });
    const named = (name: string) => ({ crs: { type: "name", properties: { name } } });
    const member = await refused(ws, "geojson", fc([point(1, 2)], named("urn:ogc:def:crs:EPSG::3857")));
    expect(member.errors!.map((e) => [e.field, e.code])).toEqual([["/file/crs", "unsupported_crs"]]);
    expect(
      await importLayer(ws, { id: `gj84-${suffix()}`, name: "CRS84", format: "geojson", bytes: fc([point(1, 2)], named("urn:ogc:def:crs:OGC:1.3:CRS84")) }),
    ).toMatchObject({ itemCount: 1 });
  });

  it("a property number that is not finite (QA D8: stored as Infinity, shown as null)", async () => {
    const ws = await designWorkspace();
    const err = await refused(
      ws,
      "geojson",
      enc('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"population":1e400},"geometry":null}]}'),
    );
    expect(err.errors).toEqual([expect.objectContaining({ field: "/file/features/0/properties/population", code: "invalid_number" })]);
  });

  it("a NUL in a CSV cell, by row from 1 and column, in a table and in points alike (QA D10: /file/rows/1 and /file/features/0)", async () => {
    const ws = await designWorkspace();
    const table = await refused(ws, "csv", enc("id,name\n1,ok\n2,a\u0000b\n"));
    expect(table.errors!.map((e) => e.field)).toEqual(["/file/rows/2/name"]);
    const points = await refused(ws, "csv", enc("name,lon,lat\na\u0000b,1,2\n"));
    expect(points.errors!.map((e) => e.field)).toEqual(["/file/rows/1/name"]);
  });

  it("GeoParquet geometry that is not WKB, by row, and a semicolon-separated CSV, by what it is (QA D11)", async () => {
    const ws = await designWorkspace();
    const geo = JSON.stringify({ version: "1.1.0", primary_column: "geometry", columns: { geometry: { encoding: "WKB", geometry_types: ["Point"] } } });
    const badWkb = parquetWriteBuffer({
      columnData: [
        { name: "id", data: [1, 2], type: "INT32" },
        { name: "geometry", data: [geojsonToWkb({ type: "Point", coordinates: [1, 2] }), new Uint8Array([1, 2, 3])], type: "BYTE_ARRAY" },
      ],
      kvMetadata: [{ key: "geo", value: geo }],
    });
    const wkb = await refused(ws, "geoparquet", new Uint8Array(badWkb));
    expect(wkb.errors!.map((e) => [e.field, e.code])).toEqual([["/file/features/1/geometry", "invalid_wkb"]]);
    expect(wkb.errors![0]!.message).toMatch(/^Row 2: the geometry \(column "geometry"\) is not valid WKB/);
    const semicolons = await refused(ws, "csv", enc("name;lon;lat\nA;1,5;2\n"));
    expect(semicolons.errors![0]!.message).toMatch(/^The header has no comma but semicolons/);
  });
});
