/**
 * The domain's run functions serve a signed-in designer (Try it) exactly as they serve an
 * API key, through a plain scope: same request validation, same lifecycle; a designer's run
 * is visible only to that designer and counts one ETL run and its processing time, never an
 * API request.
 */
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import { createRun } from "@/lib/runs/create-run";
import { cancelRun } from "@/lib/runs/cancel-run";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { getResultFile } from "@/lib/runs/get-result-file";
import { listRuns, ZListRunsQuery } from "@/lib/runs/list-runs";
import { tryItTarget } from "@/lib/runs/try-it-target";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { waitForRun } from "@/lib/runs/wait-for-run";
import type { TDesignerScope } from "@/lib/runs/scope";
import { citiesInPolygon, parseCsv, sql } from "./helpers";
import { createFlowApi, createWorkspace, demoIds, SLOW_FLOW, workspaceUsage } from "./contract-helpers";

const AREA = {
  type: "Polygon" as const,
  coordinates: [
    [
      [5.9, 45.8],
      [10.5, 45.8],
      [10.5, 47.8],
      [8.0, 48.2],
      [5.9, 47.0],
      [5.9, 45.8],
    ],
  ],
};

async function designer(workspaceId: string): Promise<TDesignerScope> {
  const { rows } = await sql().query(`INSERT INTO app_user (id, email, name) VALUES (gen_random_uuid(), $1, 'Designer') RETURNING id`, [
    `d-${randomUUID()}@test.local`,
  ]);
  return { kind: "designer", userId: rows[0].id, workspaceId };
}

async function apiId(slug: string): Promise<string> {
  const { rows } = await sql().query(`SELECT id FROM flow_api WHERE slug = $1`, [slug]);
  return rows[0].id;
}

async function expectAppError(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

describe("Try it as a designer, through the same run functions", () => {
  it("runs cities-in-area on workspace data, meters one ETL run and no API request, and shows the run only to its designer", async () => {
    const { workspaceId } = await demoIds();
    const me = await designer(workspaceId);
    const someoneElse = await designer(workspaceId);
    const target = await tryItTarget(me, await apiId("cities-in-area"));
    const before = await workspaceUsage(workspaceId);

    const request = await checkRunRequest(me, target, {
      inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } },
      parameters: { min_population: 10000 },
      formats: { summary: "csv" },
    });
    const { runId } = await createRun(me, target, request);
    const run = await waitForRun(runId, 60_000);
    expect(run.state).toBe("completed");
    expect(run.mode).toBe("try");
    expect(run.consumerId).toBeNull();
    expect(run.releaseId).toBeNull();

    const after = await workspaceUsage(workspaceId);
    expect(after.etlRuns - before.etlRuns).toBe(1);
    expect(after.apiRequests - before.apiRequests).toBe(0);
    expect(after.processingMs - before.processingMs).toBe(run.processingMs);

    // Visible to the designer, with its results; to nobody else.
    expect((await getRunOrThrow(me, runId)).id).toBe(runId);
    await expectAppError(getRunOrThrow(someoneElse, runId), "not_found");
    const file = await getResultFile(me, runId, "summary", null);
    const [summary] = parseCsv(Buffer.from(await file.bytes()));
    expect(Number(summary!.city_count)).toBe(citiesInPolygon(AREA, 10000).length);
    await expectAppError(getResultFile(someoneElse, runId, "summary", null), "not_found");
    const mine = await listRuns(me, { base: "/try", api: "cities-in-area" }, ZListRunsQuery.parse({}));
    expect(mine.runs.map((r) => r.run_id)).toEqual([runId]);
    const theirs = await listRuns(someoneElse, { base: "/try", api: "cities-in-area" }, ZListRunsQuery.parse({}));
    expect(theirs.runs).toEqual([]);
  });

  it("applies the same request validation as a published call, and starts and counts nothing on a fault", async () => {
    const { workspaceId } = await demoIds();
    const me = await designer(workspaceId);
    const target = await tryItTarget(me, await apiId("country-stats"));
    const before = await workspaceUsage(workspaceId);
    const err = await expectAppError(
      checkRunRequest(me, target, { inputs: { cities: { layer_id: "world-cities" } }, parameters: { top: 0 } }),
      "validation_failed",
    );
    expect(err.errors!.map((e) => e.field).sort()).toEqual(["/inputs/countries", "/parameters/top"]);
    const layerErr = await expectAppError(
      checkRunRequest(me, target, { inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "no-such-layer" } } }),
      "validation_failed",
    );
    expect(layerErr.errors![0]!.field).toBe("/inputs/countries/layer_id");
    // every fault at once: the form of one part, and a layer of another that the workspace does not have
    const both = await expectAppError(
      checkRunRequest(me, target, { inputs: { cities: { layer_id: "no-such-layer" }, countries: { layer_id: "world-countries" } }, parameters: { top: 0 } }),
      "validation_failed",
    );
    expect(both.errors!.map((e) => [e.field, e.code])).toEqual([
      ["/parameters/top", "too_small"],
      ["/inputs/cities/layer_id", "unknown_layer"],
    ]);
    expect(await workspaceUsage(workspaceId)).toEqual(before);
  });

  it("cancels a designer's run, and keeps designers to their own workspace", async () => {
    const { workspaceId } = await demoIds();
    const me = await designer(workspaceId);
    const slow = await createFlowApi({ definition: SLOW_FLOW, publish: false });
    const target = await tryItTarget(me, await apiId(slow));
    const { runId } = await createRun(me, target, await checkRunRequest(me, target, { inputs: { cities: { layer_id: "world-cities" } } }));
    const cancelled = await cancelRun(me, runId);
    expect(cancelled.state).toBe("cancelled");
    await expectAppError(cancelRun(me, runId), "conflict");

    const other = await createWorkspace(600);
    const outsider = await designer(other.workspaceId);
    await expectAppError(tryItTarget(outsider, await apiId(slow)), "not_found");
    await expectAppError(
      createRun(outsider, target, await checkRunRequest(outsider, target, { inputs: { cities: { layer_id: "world-cities" } } })),
      "not_found",
    );
  });
});
