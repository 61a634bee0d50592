/**
 * Adding layers in the design tool, without the browser: the upload is staged into the blob
 * store (lib/layers/stage-upload.ts) and imported by the running worker's import job
 * (lib/layers/run-layer-import.ts); GeoJSON, GeoJSON Text Sequences, CSV (points from lon/lat
 * columns, or a table) and GeoParquet; faults named by feature index, row and column; the size
 * limit counted while the body streams; ids unique within a workspace; replacing a layer needs
 * a confirmation and raises its data version; a failed import leaves the old layer and no
 * stray file; the preview samples large layers. Layer files are read back with the layer-file
 * reader, in the file's (Hilbert) order.
 */
import { describe, expect, it } from "vitest";
import { blobAsyncBuffer, blobStore } from "@/lib/blobs";
import type { TFeature, TFeatureSet, TRow, TTable } from "@/lib/engine/types";
import { openLayerFile, readLayerBatches } from "@/lib/layers/layer-file";
import { listLayers } from "@/lib/layers/list-layers";
import { layerPreview, PREVIEW_MAX_FEATURES } from "@/lib/layers/layer-preview";
import { stageLayerUpload } from "@/lib/layers/stage-upload";
import { encodeGeoParquet } from "@/lib/formats/geoparquet/write";
import { sql } from "./helpers";
import { suffix } from "./contract-helpers";
import { designWorkspace, expectAppError, importLayer, streamOf } from "./design-helpers";
import { waitForLayerImport } from "@/lib/layers/layer-imports";
import { sweepBlobs } from "@/lib/runs/purge";
import { tableFromRows } from "@/lib/steps/dataset";

/** The whole layer as stored: features or rows, in the file's order. */
async function loadLayer(ws: { workspaceId: string }, id: string): Promise<TFeatureSet | TTable> {
  const { rows } = await sql().query(`SELECT "fileKey" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id]);
  const file = await openLayerFile(await blobAsyncBuffer(blobStore(), rows[0].fileKey));
  const items: (TFeature | TRow)[] = [];
  for await (const batch of readLayerBatches(file, null)) items.push(...(Array.isArray(batch) ? batch : batch.features));
  return file.kind === "features"
    ? { kind: "features", features: items as TFeature[] }
    : tableFromRows(
        file.columns.map((c) => c.name),
        items as TRow[],
      );
}

const byName = (a: TFeature, b: TFeature) => String(a.properties.name).localeCompare(String(b.properties.name));

const enc = (s: string) => new TextEncoder().encode(s);
const point = (x: number, y: number, props: Record<string, unknown> = {}) => ({
  type: "Feature",
  properties: props,
  geometry: { type: "Point", coordinates: [x, y] },
});

describe("importing layers", () => {
  it("adds a GeoJSON layer with item count and bbox, and names a faulty feature by index", async () => {
    const ws = await designWorkspace();
    const id = `lakes-${suffix()}`;
    const fc = { type: "FeatureCollection", features: [point(8.5, 47.3, { name: "a" }), point(6.6, 46.5, { name: "b" })] };
    const r = await importLayer(ws, { id, name: "Lakes", format: "geojson", bytes: enc(JSON.stringify(fc)) });
    expect(r).toEqual({ layerId: id, kind: "features", itemCount: 2, dataVersion: 1, replaced: false });
    const [listed] = await listLayers(ws);
    expect(listed).toMatchObject({ id, kind: "features", itemCount: 2, bbox: [6.6, 46.5, 8.5, 47.3], environments: [] });
    const stored = (await loadLayer(ws, id)) as TFeatureSet;
    expect(stored.features.sort(byName)).toEqual([...fc.features].sort(byName as never));

    const bad = { type: "FeatureCollection", features: [point(1, 1), { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: ["x", 1] } }] };
    const err = await expectAppError(
      importLayer(ws, { id: `bad-${suffix()}`, name: "Bad", format: "geojson", bytes: enc(JSON.stringify(bad)) }),
      "validation_failed",
    );
    expect(err.errors![0]!.field).toMatch(/^\/file\/features\/1\/geometry/);
    expect(err.errors![0]!.message).toMatch(/^Feature 1:/);
    await expectAppError(importLayer(ws, { id: `bad-${suffix()}`, name: "Bad", format: "geojson", bytes: enc("{not json") }), "validation_failed");
  });

  it("records the geometry types, and refuses an invalid polygon naming the feature (issue 25, item 5)", async () => {
    const ws = await designWorkspace();
    const square = [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]; // prettier-ignore
    const mixed = {
      type: "FeatureCollection",
      features: [point(0.5, 0.5), { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: square } }, point(2, 2)],
    };
    const id = `mixed-${suffix()}`;
    await importLayer(ws, { id, name: "Mixed", format: "geojson", bytes: enc(JSON.stringify(mixed)) });
    expect((await listLayers(ws)).find((l) => l.id === id)?.geometryTypes).toEqual(["Point", "Polygon"]);
    const table = await importLayer(ws, { id: `t-${suffix()}`, name: "T", format: "csv", bytes: enc("a,b\n1,2\n") });
    expect((await listLayers(ws)).find((l) => l.id === table.layerId)?.geometryTypes).toEqual([]);

    // Russia as world-atlas gives it: a ring that jumps from 179.9° E to 180° W.
    const crossing = [[[179, 65], [-179, 65], [-179, 66], [179, 66], [179, 65]]]; // prettier-ignore
    const bowTie = [[[10, 10], [12, 12], [12, 10], [10, 12], [10, 10]]]; // prettier-ignore
    const bad = {
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { name: "Fine" }, geometry: { type: "Polygon", coordinates: square } },
        { type: "Feature", properties: { name: "Russia" }, geometry: { type: "Polygon", coordinates: crossing } },
        { type: "Feature", properties: {}, geometry: { type: "MultiPolygon", coordinates: [square, bowTie] } },
      ],
    };
    const err = await expectAppError(
      importLayer(ws, { id: `bad-${suffix()}`, name: "Bad", format: "geojson", bytes: enc(JSON.stringify(bad)) }),
      "validation_failed",
    );
    expect(err.errors!.map((e) => [e.field, e.code])).toEqual([
      ["/file/features/1/geometry", "invalid_polygon"],
      ["/file/features/2/geometry", "invalid_polygon"],
    ]);
    expect(err.errors![0]!.message).toMatch(/^Feature 1 \("Russia"\) is not a valid polygon: ring 0 crosses the antimeridian as given/);
    expect(err.errors![1]!.message).toBe("Feature 2 is not a valid polygon: polygon 1: ring 0 crosses itself near (11, 11).");
  });

  it("reads CSV as points (lon/lat found by name or given) or as a table, and names a faulty row and column", async () => {
    const ws = await designWorkspace();
    const points = await importLayer(ws, {
      id: `pts-${suffix()}`,
      name: "Places",
      format: "csv",
      bytes: enc("id,name,lon,lat\n1,Bern,7.44,46.95\n2,Basel,7.59,47.56\n"),
    });
    expect(points).toMatchObject({ kind: "features", itemCount: 2 });
    const data = await loadLayer(ws, points.layerId);
    expect(data.kind === "features" && data.features.find((f) => f.properties.name === "Basel")).toEqual(point(7.59, 47.56, { id: 2, name: "Basel" }));

    const named = await importLayer(ws, { id: `xy-${suffix()}`, name: "XY", format: "csv", bytes: enc("E,N,v\n8,47,a\n"), lonColumn: "E", latColumn: "N" });
    expect(named).toMatchObject({ kind: "features", itemCount: 1 });

    const table = await importLayer(ws, { id: `tbl-${suffix()}`, name: "Table", format: "csv", bytes: enc("country,count\nCH,3\nFR,\n") });
    expect(table).toMatchObject({ kind: "table", itemCount: 2 });
    expect(await loadLayer(ws, table.layerId)).toEqual(
      tableFromRows(
        ["country", "count"],
        [
          { country: "CH", count: 3 },
          { country: "FR", count: null },
        ],
      ),
    );

    const err = await expectAppError(
      importLayer(ws, { id: `bad-${suffix()}`, name: "Bad", format: "csv", bytes: enc("name,lon,lat\nA,7,46\nB,east,46\nC,7,95\n") }),
      "validation_failed",
    );
    expect(err.errors!.map((e) => e.message)).toEqual([
      'Row 2, column "lon": "east" is not a longitude (-180..180).',
      'Row 3, column "lat": "95" is not a latitude (-90..90).',
    ]);
    const missing = await expectAppError(
      importLayer(ws, { id: `m-${suffix()}`, name: "M", format: "csv", bytes: enc("a,b\n1,2\n"), lonColumn: "lon", latColumn: "b" }),
      "validation_failed",
    );
    expect(missing.errors![0]!.field).toBe("/lonColumn");
  });

  it("reads GeoParquet written by the service's own encoder", async () => {
    const ws = await designWorkspace();
    const features = [point(8.5, 47.3, { name: "Zurich", pop: 400000 }), point(6.1, 46.2, { name: "Geneva", pop: 200000 })];
    const { body } = await encodeGeoParquet({ kind: "features", features } as never);
    const r = await importLayer(ws, { id: `gp-${suffix()}`, name: "From parquet", format: "geoparquet", bytes: body });
    expect(r).toMatchObject({ kind: "features", itemCount: 2 });
    const data = await loadLayer(ws, r.layerId);
    expect(data.kind === "features" && data.features.sort(byName).map((f) => [f.geometry, f.properties.name, Number(f.properties.pop)])).toEqual([
      [features[1]!.geometry, "Geneva", 200000],
      [features[0]!.geometry, "Zurich", 400000],
    ]);
  });

  it("replaces a layer of the workspace only when confirmed, with a higher data version; another workspace's layer of that id is its own; keeps the old layer when an import fails", async () => {
    const ws = await designWorkspace();
    const other = await designWorkspace();
    const id = `rep-${suffix()}`;
    await importLayer(ws, { id, name: "V", format: "csv", bytes: enc("lon,lat\n1,1\n") });
    const unconfirmed = await expectAppError(importLayer(ws, { id, name: "V", format: "csv", bytes: enc("lon,lat\n1,1\n2,2\n") }), "conflict");
    expect(unconfirmed.detail).toMatch(/confirm replacing it/);
    const again = await importLayer(ws, { id, name: "V", format: "csv", bytes: enc("lon,lat\n1,1\n2,2\n3,3\n"), replace: true });
    expect(again).toMatchObject({ replaced: true, dataVersion: 2, itemCount: 3 });
    const data = await loadLayer(ws, id);
    expect(data.kind === "features" && data.features.length).toBe(3);
    // Ids are unique within a workspace only: another workspace's layer "id" is a new layer, and this one is untouched.
    expect(await importLayer(other, { id, name: "Mine", format: "csv", bytes: enc("lon,lat\n1,1\n") })).toMatchObject({
      replaced: false,
      dataVersion: 1,
      itemCount: 1,
    });
    expect((await listLayers(ws)).find((l) => l.id === id)).toMatchObject({ name: "V", dataVersion: 2, itemCount: 3 });

    // A failed replacement: the layer keeps its file and version, and no file of the import is left.
    const before = await sql().query(`SELECT "fileKey", "dataVersion" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id]);
    const layerFiles = async () => {
      const keys: string[] = [];
      for await (const b of blobStore().list(`layers/${ws.workspaceId}/${id}/`)) keys.push(b.key);
      return keys.sort();
    };
    // The replaced version's file stays until the purge (runs in flight may read it).
    const filesBefore = await layerFiles();
    expect(filesBefore).toContain(before.rows[0].fileKey);
    await expectAppError(importLayer(ws, { id, name: "V", format: "csv", bytes: enc("lon,lat\n1,1\n2,95\n"), replace: true }), "validation_failed");
    expect((await sql().query(`SELECT "fileKey", "dataVersion" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id])).rows).toEqual(
      before.rows,
    );
    expect(await layerFiles()).toEqual(filesBefore);
  });

  it("keeps a replaced layer's earlier file until an hour after the replacement, however old the file (runs in flight read it)", async () => {
    const ws = await designWorkspace();
    const id = `keep-${suffix()}`;
    const row = async () => (await sql().query(`SELECT "fileKey", "updatedAt" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id])).rows[0];
    await importLayer(ws, { id, name: "K", format: "csv", bytes: enc("lon,lat\n1,1\n") });
    const first = (await row()).fileKey;
    await importLayer(ws, { id, name: "K", format: "csv", bytes: enc("lon,lat\n1,1\n2,2\n"), replace: true });
    // as if the first file had been written an hour before the replacement
    await sql().query(`UPDATE layer SET "updatedAt" = "updatedAt" + interval '60 minutes' WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id]);
    const current = (await row()).fileKey;
    const files = async () => {
      const keys: string[] = [];
      for await (const o of blobStore().list(`layers/${ws.workspaceId}/${id}/`)) keys.push(o.key);
      return keys.sort();
    };
    const replacedAt = new Date((await row()).updatedAt).getTime();
    await sweepBlobs(replacedAt + 10 * 60_000); // the file is 70 minutes old, the replacement 10
    expect(await files()).toEqual([first, current].sort());
    await sweepBlobs(replacedAt + 61 * 60_000);
    expect(await files()).toEqual([current]);
  });

  it("does not let one of two uploads of a new id replace the other unasked: the later one fails with conflict and leaves no file", async () => {
    const ws = await designWorkspace();
    const id = `race-${suffix()}`;
    // both staged before either is imported: each found no layer "id" when it started
    const a = await stageLayerUpload(ws, { id, name: "A", format: "csv" }, streamOf(enc("lon,lat\n1,1\n")), null);
    const b = await stageLayerUpload(ws, { id, name: "B", format: "csv" }, streamOf(enc("lon,lat\n1,1\n2,2\n")), null);
    const docs = await Promise.all([a, b].map((s) => waitForLayerImport(ws, s.import_id, 60_000)));
    expect(docs.map((d) => d.state).sort()).toEqual(["completed", "failed"]);
    const [won, lost] = docs[0]!.state === "completed" ? docs : [docs[1]!, docs[0]!];
    expect(won!.result).toMatchObject({ replaced: false, dataVersion: 1 });
    expect(lost!.error).toMatchObject({ code: "conflict", detail: expect.stringMatching(/was added while this file was being imported/) });
    const keys: string[] = [];
    for await (const o of blobStore().list(`layers/${ws.workspaceId}/${id}/`)) keys.push(o.key);
    const { rows } = await sql().query(`SELECT "fileKey", "dataVersion" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [ws.workspaceId, id]);
    expect(rows).toEqual([{ fileKey: keys[0], dataVersion: 1 }]);
    expect(keys).toHaveLength(1);
  });

  it("counts an upload while it streams: past the limit it stops reading at once (413), with or without Content-Length, and keeps nothing", async () => {
    const ws = await designWorkspace();
    await expectAppError(
      stageLayerUpload(ws, { id: `big-${suffix()}`, name: "Big", format: "csv" }, streamOf(enc("lon,lat\n")), 3 * 1024 ** 3),
      "payload_too_large",
    );
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024).fill(49));
      },
    });
    const before = new Set<string>();
    for await (const b of blobStore().list("imports/")) before.add(b.key);
    await expectAppError(
      stageLayerUpload(ws, { id: `big-${suffix()}`, name: "Big", format: "csv" }, endless, null, { maxBytes: 1024 * 1024 }),
      "payload_too_large",
    );
    expect(pulled).toBeLessThanOrEqual((1024 * 1024) / (64 * 1024) + 2);
    const after: string[] = [];
    for await (const b of blobStore().list("imports/")) if (!before.has(b.key)) after.push(b.key);
    expect(after).toEqual([]);
  });

  it("reads GeoJSON Text Sequences (RFC 8142) and refuses text Postgres cannot hold, naming the feature", async () => {
    const ws = await designWorkspace();
    const seq = [point(1, 1, { name: "a" }), point(2, 2, { name: "b" })].map((f) => `\u001e${JSON.stringify(f)}\n`).join("");
    expect(await importLayer(ws, { id: `seq-${suffix()}`, name: "Seq", format: "geojsonseq", bytes: enc(seq) })).toMatchObject({
      kind: "features",
      itemCount: 2,
    });
    const nul = { type: "FeatureCollection", features: [point(1, 1, { name: "ok" }), point(2, 2, { name: "a\u0000b" })] };
    const err = await expectAppError(
      importLayer(ws, { id: `nul-${suffix()}`, name: "Nul", format: "geojson", bytes: enc(JSON.stringify(nul)) }),
      "validation_failed",
    );
    expect(err.errors![0]!.field).toBe("/file/features/1/properties/name");
  });

  it("previews a large layer by an even sample and a table by its first rows", async () => {
    const ws = await designWorkspace();
    const n = PREVIEW_MAX_FEATURES * 2 + 5;
    const rows = Array.from({ length: n }, (_, i) => `${(i % 360) - 180 + 0.5},${(i % 170) - 85}`).join("\n");
    const { layerId } = await importLayer(ws, { id: `many-${suffix()}`, name: "Many", format: "csv", bytes: enc(`lon,lat\n${rows}\n`) });
    const preview = await layerPreview(ws, layerId);
    expect(preview.kind).toBe("features");
    if (preview.kind !== "features") return;
    expect(preview.total).toBe(n);
    expect(preview.sampled).toBe(true);
    expect(preview.geojson.features.length).toBe(Math.ceil(n / Math.ceil(n / PREVIEW_MAX_FEATURES)));
    await expectAppError(layerPreview(await designWorkspace(), layerId), "not_found");
  });
});
