/**
 * Flow APIs in the design tool, without the browser: creation as a draft within the plan's
 * limit (drafts count, the refusal names the limit), unique slugs, publishing pins exactly
 * the chosen flow version, a newer flow version changes nothing on the serving side until it
 * is published, source labels ("Source in trash" blocks publishing, "Needs a source"), and
 * the published API keeps serving over HTTP with a key throughout. Try it on a draft: one
 * ETL run, no API request, nothing published.
 */
import { describe, expect, it } from "vitest";
import { createFlow, saveFlowVersion } from "@/lib/flows/save-flow-version";
import { deleteFlowPermanently, restoreFlow, trashFlow } from "@/lib/flows/trash-flow";
import { createFlowApi } from "@/lib/apis/create-flow-api";
import { publishRelease } from "@/lib/apis/publish-release";
import { getFlowApiOrThrow } from "@/lib/apis/get-flow-api";
import { listFlowApis } from "@/lib/apis/list-flow-apis";
import { releaseDiff } from "@/lib/apis/release-diff";
import { ZFlowVersion } from "@/lib/flows/definition";
import { tryItTarget } from "@/lib/runs/try-it-target";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { createRun } from "@/lib/runs/create-run";
import { waitForRun } from "@/lib/runs/wait-for-run";
import { apiPath, http, sql, waitFor } from "./helpers";
import { createConsumer, demoIds, suffix, workspaceUsage, ZURICH_AREA } from "./contract-helpers";
import { AREA_ECHO_V1, AREA_ECHO_V2, designWorkspace, expectAppError } from "./design-helpers";

async function versionId(flowId: string, version: number): Promise<string> {
  const { rows } = await sql().query(`SELECT id FROM flow_version WHERE "flowId" = $1 AND version = $2`, [flowId, version]);
  return rows[0].id;
}

/** Calls the published API over HTTP and answers the flow version that ran and its result keys. */
async function callPublished(slug: string, key: string): Promise<{ flowVersion: number; results: string[] }> {
  const r = await http("POST", `${apiPath(slug)}/runs`, { key, body: { inputs: { area: { area: ZURICH_AREA } }, wait_seconds: 30 } });
  expect(r.status, r.text).toBe(200);
  expect(r.body.state).toBe("completed");
  return { flowVersion: r.body.flow_version, results: r.body.results.map((x: { key: string }) => x.key).sort() };
}

describe("creating a Flow API", () => {
  it("creates a draft on the flow's latest version; slugs and names are unique in the organization, slugs well-formed", async () => {
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    await saveFlowVersion(ws, flowId, AREA_ECHO_V2);
    const slug = `echo-${suffix()}`;
    const name = `Echo ${suffix()}`;
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId, name, slug });
    // the name, whatever its case, in another workspace of the organization too
    const other = await designWorkspace();
    const otherFlow = await createFlow(other, { name: "Echo", definition: AREA_ECHO_V1 });
    const sameName = await expectAppError(
      createFlowApi(other, { kind: "flow", flowId: otherFlow.flowId, name: name.toUpperCase(), slug: `echo-${suffix()}` }),
      "validation_failed",
    );
    expect(sameName.errors).toEqual([expect.objectContaining({ field: "/name", code: "name_taken" })]);
    const api = await getFlowApiOrThrow(ws, flowApiId);
    expect(api.status).toBe("draft");
    expect(api.selectedVersion?.version).toBe(2);
    expect(api.serving.every((s) => s.release === null)).toBe(true);

    const taken = await expectAppError(createFlowApi(ws, { kind: "flow", flowId, name: `Again ${suffix()}`, slug }), "validation_failed");
    expect(taken.errors).toEqual([expect.objectContaining({ field: "/slug", code: "slug_taken" })]);
    const badSlug = await expectAppError(createFlowApi(ws, { kind: "flow", flowId, name: `Bad ${suffix()}`, slug: "Not A Slug" }), "validation_failed");
    expect(badSlug.errors![0]!.field).toBe("/slug");
    await trashFlow(ws, flowId);
    const trashed = await expectAppError(createFlowApi(ws, { kind: "flow", flowId, name: `T ${suffix()}`, slug: `t-${suffix()}` }), "validation_failed");
    expect(trashed.errors![0]!.field).toBe("/flowId");
  });

  it("counts drafts against the plan and refuses at the limit with a message naming it", async () => {
    const ws = await designWorkspace(2);
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    await createFlowApi(ws, { kind: "flow", flowId, name: `One ${suffix()}`, slug: `one-${suffix()}` });
    await createFlowApi(ws, { kind: "flow", flowId, name: `Two ${suffix()}`, slug: `two-${suffix()}` });
    const err = await expectAppError(createFlowApi(ws, { kind: "flow", flowId, name: `Three ${suffix()}`, slug: `three-${suffix()}` }), "conflict");
    expect(err.detail).toContain(ws.planName);
    expect(err.detail).toContain("allows 2 APIs");
    expect(err.detail).toContain("drafts included");
    const { plan, apis } = await listFlowApis(ws);
    expect(plan).toEqual({ name: ws.planName, maxFlowApis: 2, used: 2 });
    expect(apis.every((a) => a.status === "draft")).toBe(true);
  });

  it("lets only one of two concurrent creations take the last place", async () => {
    const ws = await designWorkspace(1);
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    const results = await Promise.allSettled([
      createFlowApi(ws, { kind: "flow", flowId, name: `A ${suffix()}`, slug: `a-${suffix()}` }),
      createFlowApi(ws, { kind: "flow", flowId, name: `B ${suffix()}`, slug: `b-${suffix()}` }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await listFlowApis(ws)).plan.used).toBe(1);
  });
});

describe("publishing, republishing and source labels", () => {
  it("pins the chosen version; a newer version changes nothing until republished; labels block publishing but never serving", async () => {
    const { environmentId } = await demoIds();
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    const slug = `echo-${suffix()}`;
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId, name: `Echo ${suffix()}`, slug });
    const { secret } = await createConsumer({ grants: [slug] });

    // Draft: not served.
    expect((await http("POST", `${apiPath(slug)}/runs`, { key: secret, body: { inputs: { area: { area: ZURICH_AREA } } } })).status).toBe(404);

    const first = await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) });
    expect(first).toMatchObject({ number: 1, flowVersion: 1 });
    expect(await waitFor("v1 served", async () => (await callPublished(slug, secret)).flowVersion === 1, 10_000)).toBe(true);

    // A newer flow version: serving unchanged, the page says "Version 2 available".
    await saveFlowVersion(ws, flowId, AREA_ECHO_V2);
    expect(await callPublished(slug, secret)).toEqual({ flowVersion: 1, results: ["out"] });
    const page = await getFlowApiOrThrow(ws, flowApiId);
    expect(page.availableVersion?.version).toBe(2);
    expect(page.serving.find((s) => s.environment.id === environmentId)!.release).toMatchObject({ number: 1, flowVersion: 1 });
    const diff = releaseDiff(ZFlowVersion.parse(AREA_ECHO_V1), ZFlowVersion.parse(AREA_ECHO_V2));
    expect(diff.results.added.map((e) => e.name)).toEqual(["summary"]);
    expect(diff.parameters.added.map((e) => e.name)).toEqual(["label"]);

    // Republish version 2: callers get it.
    const second = await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 2) });
    expect(second).toMatchObject({ number: 2, flowVersion: 2 });
    await waitFor("v2 served", async () => (await callPublished(slug, secret)).flowVersion === 2, 10_000);
    expect(await callPublished(slug, secret)).toEqual({ flowVersion: 2, results: ["out", "summary"] });
    expect((await getFlowApiOrThrow(ws, flowApiId)).availableVersion).toBeNull();

    // Trash: "Source in trash", publishing blocked with the reason, serving on.
    await trashFlow(ws, flowId);
    const trashed = await getFlowApiOrThrow(ws, flowApiId);
    expect(trashed.source.label).toBe("Source in trash");
    const blocked = await expectAppError(publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) }), "conflict");
    expect(blocked.detail).toMatch(/trash.*restore/i);
    expect((await callPublished(slug, secret)).flowVersion).toBe(2);

    // Restore: publishing works again (back to version 1, pinned exactly).
    await restoreFlow(ws, flowId);
    expect((await getFlowApiOrThrow(ws, flowApiId)).source.label).toBeNull();
    await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) });
    await waitFor("v1 served again", async () => (await callPublished(slug, secret)).flowVersion === 1, 10_000);

    // Delete permanently: "Needs a source", publishing impossible, serving on.
    await trashFlow(ws, flowId);
    await deleteFlowPermanently(ws, flowId);
    const orphan = await getFlowApiOrThrow(ws, flowApiId);
    expect(orphan.source.label).toBe("Needs a source");
    expect((await listFlowApis(ws)).apis[0]!.sourceLabel).toBe("Needs a source");
    await expectAppError(publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 2) }), "conflict");
    expect(await callPublished(slug, secret)).toEqual({ flowVersion: 1, results: ["out"] });
  });

  it("refuses a version of another flow and an environment of another organization", async () => {
    const { environmentId } = await demoIds();
    const ws = await designWorkspace();
    const a = await createFlow(ws, { name: "A", definition: AREA_ECHO_V1 });
    const b = await createFlow(ws, { name: "B", definition: AREA_ECHO_V1 });
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId: a.flowId, name: `A ${suffix()}`, slug: `a-${suffix()}` });
    const wrong = await expectAppError(publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(b.flowId, 1) }), "validation_failed");
    expect(wrong.errors![0]!.field).toBe("/flowVersionId");
    await expectAppError(
      publishRelease(
        { ...ws, organizationId: "00000000-0000-4000-8000-000000000000" },
        { flowApiId, environmentId, flowVersionId: await versionId(a.flowId, 1) },
      ),
      "not_found",
    );
  });
});

describe("Try it on a draft", () => {
  it("runs the flow version as the designer: one ETL run and its processing time, no API request, nothing published", async () => {
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V2 });
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId, name: `Echo ${suffix()}`, slug: `try-${suffix()}` });
    const { rows } = await sql().query(`INSERT INTO app_user (id, email, name) VALUES (gen_random_uuid(), $1, 'D') RETURNING id`, [`d-${suffix()}@test.local`]);
    const me = { kind: "designer" as const, userId: rows[0].id as string, workspaceId: ws.workspaceId };
    const before = await workspaceUsage(ws.workspaceId);
    const target = await tryItTarget(me, flowApiId);
    const { runId } = await createRun(me, target, await checkRunRequest(me, target, { inputs: { area: { area: ZURICH_AREA } } }));
    const run = await waitForRun(runId, 60_000);
    expect(run.state).toBe("completed");
    const after = await workspaceUsage(ws.workspaceId);
    expect(after.etlRuns - before.etlRuns).toBe(1);
    expect(after.apiRequests - before.apiRequests).toBe(0);
    expect(after.processingMs - before.processingMs).toBe(run.processingMs);
    const api = await getFlowApiOrThrow(ws, flowApiId);
    expect(api.status).toBe("draft");
    expect(api.serving.every((s) => s.release === null)).toBe(true);
  });
});

describe("publishing where AI assistants may call the API", () => {
  it("refuses a version whose input and parameter names collide as one tool's arguments, naming both", async () => {
    const { environmentId } = await demoIds();
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId, name: `Echo ${suffix()}`, slug: `ai-${suffix()}` });
    await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) });
    await sql().query(`UPDATE environment_api SET "aiAccess" = true WHERE "flowApiId" = $1`, [flowApiId]);
    await saveFlowVersion(ws, flowId, { ...AREA_ECHO_V1, parameters: [{ name: "area", type: "string" }] });
    const err = await expectAppError(publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 2) }), "validation_failed");
    expect(err.errors!.map((e) => e.field).sort()).toEqual(["/inputs/0/name", "/parameters/0/name"]);
    expect((await getFlowApiOrThrow(ws, flowApiId)).serving.find((s) => s.environment.id === environmentId)!.release!.flowVersion).toBe(1);
  });
});
