/**
 * Previews of an unsaved flow document (lib/runs/preview-run.ts): the designer runs the
 * document as it is, through the worker like any run, and sees each step's count, columns and
 * first rows; the document is checked by the validator saving uses; inputs are checked as in
 * Try it; a failing step is named; a preview counts one ETL run for the workspace, like Try it.
 */
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { cancelFlowPreview, getFlowPreview, startFlowPreview } from "@/lib/runs/preview-run";
import { PREVIEW_ROWS } from "@/lib/runs/preview-rows";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import type { TDesignerScope } from "@/lib/runs/scope";
import { sql, SWISS_AREA } from "./helpers";
import { demoIds, SLOW_FLOW, suffix, workspaceUsage } from "./contract-helpers";
import { designWorkspace, expectAppError, importLayer } from "./design-helpers";

const BASE = "/api/design/demo/ws";

async function designer(workspaceId: string): Promise<TDesignerScope> {
  const { rows } = await sql().query(`INSERT INTO app_user (id, email, name) VALUES (gen_random_uuid(), $1, 'Designer') RETURNING id`, [
    `d-${randomUUID()}@test.local`,
  ]);
  return { kind: "designer", userId: rows[0].id, workspaceId };
}

/** Cities in an area, counted per country: three steps, the last a table. No results: the preview makes them. */
const CITIES_DOC = {
  inputs: [
    { name: "cities", kind: "layer" },
    { name: "area", kind: "area" },
  ],
  parameters: [{ name: "min_population", type: "integer", default: 0 }],
  steps: [
    { id: "inside", type: "spatial_filter", source: "cities", by: "area" },
    { id: "big", type: "filter", source: "inside", where: [">=", ["get", "population"], ["var", "min_population"]] },
    { id: "per_country", type: "aggregate", source: "big", group_by: ["country"], aggregations: [{ op: "count", as: "n" }] },
  ],
};

async function finished(scope: TDesignerScope, runId: string) {
  const doc = await getFlowPreview(scope, runId, { base: BASE, waitMs: 60_000 });
  expect(["completed", "failed", "cancelled"]).toContain(doc.state);
  return doc;
}

describe("previews of an unsaved flow document", () => {
  it("runs the document on a workspace layer and an area, and shows each step's count, columns and first rows", async () => {
    const { workspaceId } = await demoIds();
    const me = await designer(workspaceId);
    const { runId } = await startFlowPreview(me, {
      document: CITIES_DOC,
      inputs: { cities: { layer_id: "world-cities" }, area: { area: SWISS_AREA } },
      parameters: { min_population: 50_000 },
    });
    const doc = await finished(me, runId);
    expect(doc.state).toBe("completed");
    expect(doc.links.self).toBe(`${BASE}/flow-previews/${runId}`);
    expect(doc.progress).toEqual({ steps_done: 3, steps_total: 3 });
    expect(doc.steps!.map((s) => [s.id, s.type, s.kind])).toEqual([
      ["inside", "spatial_filter", "layer"],
      ["big", "filter", "layer"],
      ["per_country", "aggregate", "table"],
    ]);
    const [inside, big, perCountry] = doc.steps!;
    expect(inside!.count).toBeGreaterThan(big!.count);
    expect(big!.count).toBeGreaterThan(0);
    expect(inside!.features).toHaveLength(Math.min(inside!.count, PREVIEW_ROWS));
    const first = inside!.features![0] as { type: string; geometry: { type: string }; properties: Record<string, unknown> };
    expect(first.type).toBe("Feature");
    expect(first.geometry.type).toBe("Point");
    expect(inside!.columns).toEqual(expect.arrayContaining([{ name: "population", type: "integer" }]));
    for (const f of big!.features as { properties: { population: number } }[]) expect(f.properties.population).toBeGreaterThanOrEqual(50_000);
    // The table: declared columns with their types, rows adding up to the filtered count.
    expect(perCountry!.columns).toEqual([
      { name: "country", type: expect.stringMatching(/string|any/) },
      { name: "n", type: "integer" },
    ]);
    expect(perCountry!.rows!.reduce((s, r) => s + (r.n as number), 0)).toBe(big!.count);

    // A designer's run without an API or version, its flow stored with it; seen only by its designer.
    const { rows } = await sql().query(`SELECT mode, "flowApiId", "flowVersionId", "flowDocument", "userId" FROM run WHERE id = $1`, [runId]);
    expect(rows[0]).toMatchObject({ mode: "try", flowApiId: null, flowVersionId: null, userId: me.userId });
    expect(rows[0].flowDocument.results.map((r: { key: string }) => r.key)).toEqual(["inside", "big", "per_country"]);
    await expectAppError(getFlowPreview(await designer(workspaceId), runId, { base: BASE }), "not_found");
  });

  it("keeps only the first rows of a big step, with the full count", async () => {
    const ws = await designWorkspace();
    const me = await designer(ws.workspaceId);
    const n = PREVIEW_ROWS * 3 + 7;
    const csv = `lon,lat,i\n${Array.from({ length: n }, (_, i) => `${(i % 90) + 0.5},${(i % 45) + 0.5},${i}`).join("\n")}\n`;
    const { layerId } = await importLayer(ws, { id: `many-${suffix()}`, name: "Many", format: "csv", bytes: new TextEncoder().encode(csv) });
    const document = {
      inputs: [{ name: "points", kind: "layer" }],
      steps: [
        { id: "all", type: "filter", source: "points", where: [">=", ["get", "i"], 0] },
        { id: "rows", type: "to_table", source: "all" },
      ],
      results: [{ key: "ignored", kind: "table", from: "rows" }],
    };
    const { runId } = await startFlowPreview(me, { document, inputs: { points: { layer_id: layerId } } });
    const doc = await finished(me, runId);
    expect(doc.state).toBe("completed");
    expect(doc.row_limit).toBe(PREVIEW_ROWS);
    const [all, rows] = doc.steps!;
    expect(all).toMatchObject({ id: "all", kind: "layer", count: n });
    expect(all!.features).toHaveLength(PREVIEW_ROWS);
    expect(rows).toMatchObject({ id: "rows", kind: "table", count: n });
    expect(rows!.rows).toHaveLength(PREVIEW_ROWS);
    // The document's own results are replaced by one per step.
    expect(doc.steps!.map((s) => s.id)).toEqual(["all", "rows"]);
  });

  it("previews a step over a whole big layer by its first features and its count, without holding the layer", async () => {
    const { workspaceId } = await demoIds();
    const me = await designer(workspaceId);
    const { rows } = await sql().query(`SELECT "itemCount" FROM layer WHERE id = 'world-cities'`);
    const document = { inputs: [{ name: "cities", kind: "layer" }], steps: [{ id: "all", type: "filter", source: "cities", where: true }] };
    const { runId } = await startFlowPreview(me, { document, inputs: { cities: { layer_id: "world-cities" } } });
    const doc = await finished(me, runId);
    expect(doc.state).toBe("completed");
    expect(doc.steps![0]).toMatchObject({ id: "all", kind: "layer", count: rows[0].itemCount });
    expect(doc.steps![0]!.features).toHaveLength(PREVIEW_ROWS);
  });

  it("refuses an invalid document with 422 naming the field, and runs nothing", async () => {
    const ws = await designWorkspace();
    const me = await designer(ws.workspaceId);
    const before = await workspaceUsage(ws.workspaceId);
    const bad = { ...CITIES_DOC, steps: [{ id: "inside", type: "spatial_filter", source: "cities", by: "nowhere" }, ...CITIES_DOC.steps.slice(1)] };
    const err = await expectAppError(startFlowPreview(me, { document: bad, inputs: {} }), "validation_failed");
    expect(err.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: "/document/steps/0/by", code: "unknown_reference" })]));
    const unknown = await expectAppError(startFlowPreview(me, { document: { ...CITIES_DOC, steps: [{ id: "x", type: "teleport" }] } }), "validation_failed");
    expect(unknown.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: "/document/steps/0/type", code: "unknown_step_type" })]));
    const empty = await expectAppError(startFlowPreview(me, { document: { inputs: [], steps: [] } }), "validation_failed");
    expect(empty.errors).toEqual([expect.objectContaining({ field: "/document/steps" })]);
    // Inputs are checked as in Try it.
    const missing = await expectAppError(startFlowPreview(me, { document: CITIES_DOC, inputs: { area: { area: SWISS_AREA } } }), "validation_failed");
    expect(missing.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: "/inputs/cities" })]));
    expect((await workspaceUsage(ws.workspaceId)).etlRuns).toBe(before.etlRuns);
  });

  it("refuses a layer of another workspace as if it did not exist", async () => {
    const mine = await designWorkspace();
    const other = await designWorkspace();
    const me = await designer(mine.workspaceId);
    const { layerId } = await importLayer(other, {
      id: `theirs-${suffix()}`,
      name: "Theirs",
      format: "csv",
      bytes: new TextEncoder().encode("lon,lat\n8,47\n"),
    });
    const document = { inputs: [{ name: "points", kind: "layer" }], steps: [{ id: "all", type: "filter", source: "points", where: true }] };
    const err = await expectAppError(startFlowPreview(me, { document, inputs: { points: { layer_id: layerId } } }), "validation_failed");
    expect(err.errors).toEqual([expect.objectContaining({ field: "/inputs/points/layer_id" })]);
    expect(JSON.stringify(err.errors)).not.toContain("Theirs");
  });

  it("names the step that fails", async () => {
    const ws = await designWorkspace();
    const me = await designer(ws.workspaceId);
    const document = {
      inputs: [
        { name: "lines", kind: "layer" },
        { name: "zone", kind: "area" },
      ],
      steps: [
        { id: "all_lines", type: "filter", source: "lines", where: true },
        { id: "containing", type: "spatial_filter", source: "all_lines", by: "zone", predicate: "contains" },
      ],
    };
    const line = {
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          properties: { name: "across" },
          geometry: {
            type: "LineString",
            coordinates: [
              [6, 46],
              [10, 47.5],
            ],
          },
        },
      ],
    };
    const { runId } = await startFlowPreview(me, { document, inputs: { lines: { geojson: line }, zone: { area: SWISS_AREA } } });
    const doc = await finished(me, runId);
    expect(doc.state).toBe("failed");
    expect(doc.error).toMatchObject({ code: "step_failed", step: "containing" });
    expect(doc.error!.message).toContain("containing");
    expect(doc.steps).toBeUndefined();
  });

  it("counts one ETL run and its processing time for the workspace, like Try it, and never an API request", async () => {
    const ws = await designWorkspace();
    const me = await designer(ws.workspaceId);
    const before = await workspaceUsage(ws.workspaceId);
    const document = {
      inputs: [{ name: "zone", kind: "area" }],
      steps: [{ id: "counted", type: "aggregate", source: "zone", aggregations: [{ op: "count", as: "n" }] }],
    };
    const { runId } = await startFlowPreview(me, { document, inputs: { zone: { area: SWISS_AREA } } });
    const doc = await finished(me, runId);
    expect(doc.state).toBe("completed");
    expect(doc.steps![0]).toMatchObject({ id: "counted", kind: "table", count: 1, rows: [{ n: 1 }] });
    const after = await workspaceUsage(ws.workspaceId);
    expect(after.etlRuns - before.etlRuns).toBe(1);
    expect(after.apiRequests - before.apiRequests).toBe(0);
    const run = await getRunOrThrow(me, runId);
    expect(after.processingMs - before.processingMs).toBe(run.processingMs);
  });

  it("can be cancelled like any run", async () => {
    const { workspaceId } = await demoIds();
    const me = await designer(workspaceId);
    const { results: _, ...slow } = SLOW_FLOW;
    const { runId } = await startFlowPreview(me, { document: slow, inputs: { cities: { layer_id: "world-cities" } } });
    await cancelFlowPreview(me, runId);
    const doc = await getFlowPreview(me, runId, { base: BASE });
    expect(doc.state).toBe("cancelled");
    await expectAppError(cancelFlowPreview(me, runId), "conflict");
  });
});
