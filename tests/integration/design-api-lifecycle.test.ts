/**
 * The rest of a Flow API's life in the design tool, without the browser: unpublishing from an
 * environment (callers then get 404 over HTTP; releases and runs stay; served nowhere, it is a
 * draft again), deleting an API no environment serves (refused with the reason, 409, while one
 * does; the plan's count and the slug are freed; its runs stay), and pointing an API whose
 * source flow was deleted permanently at another flow (its latest version; serving unchanged
 * until published again).
 */
import { describe, expect, it } from "vitest";
import { createFlow, saveFlowVersion } from "@/lib/flows/save-flow-version";
import { deleteFlowPermanently, trashFlow } from "@/lib/flows/trash-flow";
import { createFlowApi } from "@/lib/apis/create-flow-api";
import { publishRelease } from "@/lib/apis/publish-release";
import { getFlowApiOrThrow } from "@/lib/apis/get-flow-api";
import { listFlowApis } from "@/lib/apis/list-flow-apis";
import { deleteFlowApi } from "@/lib/apis/delete-flow-api";
import { unpublishFlowApi } from "@/lib/apis/unpublish-flow-api";
import { setFlowApiSource } from "@/lib/apis/set-flow-api-source";
import { ERROR_STATUS } from "@/lib/errors/app-error";
import { tryItTarget } from "@/lib/runs/try-it-target";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { createRun } from "@/lib/runs/create-run";
import { waitForRun } from "@/lib/runs/wait-for-run";
import { apiPath, http, sql, waitFor } from "./helpers";
import { createConsumer, demoIds, suffix, ZURICH_AREA } from "./contract-helpers";
import { AREA_ECHO_V1, AREA_ECHO_V2, designWorkspace, expectAppError } from "./design-helpers";

async function versionId(flowId: string, version: number): Promise<string> {
  const { rows } = await sql().query(`SELECT id FROM flow_version WHERE "flowId" = $1 AND version = $2`, [flowId, version]);
  return rows[0].id;
}

const call = (slug: string, key: string) => http("POST", `${apiPath(slug)}/runs`, { key, body: { inputs: { area: { area: ZURICH_AREA } }, wait_seconds: 30 } });

async function countRows(table: "run" | "release", flowApiId: string): Promise<number> {
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM "${table}" WHERE "flowApiId" = $1`, [flowApiId]);
  return rows[0].n;
}

/** A designer of the workspace, for Try it. */
async function designer(workspaceId: string) {
  const { rows } = await sql().query(`INSERT INTO app_user (id, email, name) VALUES (gen_random_uuid(), $1, 'D') RETURNING id`, [`d-${suffix()}@test.local`]);
  return { kind: "designer" as const, userId: rows[0].id as string, workspaceId };
}

describe("unpublishing a Flow API", () => {
  it("stops serving it in that environment (404 over HTTP) and keeps its releases and runs; served nowhere, it is a draft again", async () => {
    const { environmentId } = await demoIds();
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    const slug = `unpub-${suffix()}`;
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId, name: `Echo ${suffix()}`, slug });
    const { secret } = await createConsumer({ grants: [slug] });
    await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) });
    const served = await waitFor("served", async () => ((await call(slug, secret)).status === 200 ? true : null), 10_000);
    expect(served).toBe(true);
    const runsBefore = await countRows("run", flowApiId);
    expect(runsBefore).toBeGreaterThan(0);

    expect(await unpublishFlowApi(ws, { flowApiId, environmentId })).toEqual({ status: "draft" });
    const gone = await waitFor("404 after unpublishing", async () => ((await call(slug, secret)).status === 404 ? true : null), 10_000);
    expect(gone).toBe(true);
    const r = await call(slug, secret);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    expect((await http("GET", `/docs/demo/production/${slug}`, { key: null })).status).toBe(404);

    expect(await countRows("run", flowApiId)).toBe(runsBefore);
    expect(await countRows("release", flowApiId)).toBe(1);
    const page = await getFlowApiOrThrow(ws, flowApiId);
    expect(page.status).toBe("draft");
    expect(page.serving.every((s) => s.release === null)).toBe(true);

    // Not served there any more: a second unpublish is refused; publishing again starts release 2.
    const again = await expectAppError(unpublishFlowApi(ws, { flowApiId, environmentId }), "conflict");
    expect(ERROR_STATUS[again.code]).toBe(409);
    expect(await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) })).toMatchObject({ number: 2 });
    expect(await waitFor("served again", async () => ((await call(slug, secret)).status === 200 ? true : null), 10_000)).toBe(true);
  });

  it("refuses an API or environment outside the workspace's reach", async () => {
    const ws = await designWorkspace();
    const other = await designWorkspace();
    const { flowId } = await createFlow(other, { name: "Echo", definition: AREA_ECHO_V1 });
    const { flowApiId } = await createFlowApi(other, { kind: "flow", flowId, name: `Echo ${suffix()}`, slug: `reach-${suffix()}` });
    const { environmentId } = await demoIds();
    await expectAppError(unpublishFlowApi(ws, { flowApiId, environmentId }), "not_found");
    await expectAppError(unpublishFlowApi(other, { flowApiId, environmentId: crypto.randomUUID() }), "not_found");
    await expectAppError(deleteFlowApi(ws, flowApiId), "not_found");
  });
});

describe("deleting a Flow API", () => {
  it("is refused with the reason (409) while published; a deleted API frees its place in the plan and its slug, and keeps its runs", async () => {
    const { environmentId } = await demoIds();
    const ws = await designWorkspace(2);
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    const published = await createFlowApi(ws, { kind: "flow", flowId, name: `Published ${suffix()}`, slug: `del-pub-${suffix()}` });
    const draftSlug = `del-draft-${suffix()}`;
    const draft = await createFlowApi(ws, { kind: "flow", flowId, name: `Draft ${suffix()}`, slug: draftSlug });
    await publishRelease(ws, { flowApiId: published.flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) });

    // At the limit: a third API is refused.
    await expectAppError(createFlowApi(ws, { kind: "flow", flowId, name: `Third ${suffix()}`, slug: `del-third-${suffix()}` }), "conflict");
    expect((await listFlowApis(ws)).plan.used).toBe(2);

    // Published in production: refused, naming the environment.
    const refused = await expectAppError(deleteFlowApi(ws, published.flowApiId), "conflict");
    expect(ERROR_STATUS[refused.code]).toBe(409);
    expect(refused.detail).toMatch(/published in Production/);
    expect(refused.detail).toMatch(/Unpublish/);
    expect((await getFlowApiOrThrow(ws, published.flowApiId)).id).toBe(published.flowApiId);

    // The draft, after a Try-it run: deleted, gone from the list and the plan's count; its run stays.
    const me = await designer(ws.workspaceId);
    const target = await tryItTarget(me, draft.flowApiId);
    const { runId } = await createRun(me, target, await checkRunRequest(me, target, { inputs: { area: { area: ZURICH_AREA } } }));
    expect((await waitForRun(runId, 60_000)).state).toBe("completed");
    expect(await deleteFlowApi(ws, draft.flowApiId)).toEqual({ flowApiId: draft.flowApiId });
    const list = await listFlowApis(ws);
    expect(list.apis.map((a) => a.id)).toEqual([published.flowApiId]);
    expect(list.plan.used).toBe(1);
    await expectAppError(getFlowApiOrThrow(ws, draft.flowApiId), "not_found");
    await expectAppError(deleteFlowApi(ws, draft.flowApiId), "not_found");
    await expectAppError(publishRelease(ws, { flowApiId: draft.flowApiId, environmentId, flowVersionId: await versionId(flowId, 1) }), "not_found");
    expect(await countRows("run", draft.flowApiId)).toBe(1);

    // Its place and its slug are free: a new API takes both.
    const again = await createFlowApi(ws, { kind: "flow", flowId, name: `Draft again ${suffix()}`, slug: draftSlug });
    expect(again.flowApiId).not.toBe(draft.flowApiId);
    expect((await listFlowApis(ws)).plan.used).toBe(2);

    // Unpublished everywhere, the published one may be deleted too.
    await unpublishFlowApi(ws, { flowApiId: published.flowApiId, environmentId });
    await deleteFlowApi(ws, published.flowApiId);
    expect((await listFlowApis(ws)).plan.used).toBe(1);
    expect(await countRows("release", published.flowApiId)).toBe(1);
  });
});

describe("pointing an API whose source is gone at another flow", () => {
  it("uses the chosen flow's latest version for the next draft; serving is unchanged until published again", async () => {
    const { environmentId } = await demoIds();
    const ws = await designWorkspace();
    const old = await createFlow(ws, { name: "Old", definition: AREA_ECHO_V1 });
    const slug = `repoint-${suffix()}`;
    const { flowApiId } = await createFlowApi(ws, { kind: "flow", flowId: old.flowId, name: `Repointed ${suffix()}`, slug });
    const { secret } = await createConsumer({ grants: [slug] });

    // While the source exists (active, then in the trash) the API keeps it.
    const next = await createFlow(ws, { name: "Next", definition: AREA_ECHO_V1 });
    await saveFlowVersion(ws, next.flowId, AREA_ECHO_V2);
    await expectAppError(setFlowApiSource(ws, { flowApiId, flowId: next.flowId }), "conflict");

    await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(old.flowId, 1) });
    await trashFlow(ws, old.flowId);
    await expectAppError(setFlowApiSource(ws, { flowApiId, flowId: next.flowId }), "conflict");
    await deleteFlowPermanently(ws, old.flowId);
    expect((await getFlowApiOrThrow(ws, flowApiId)).source.label).toBe("Needs a source");

    // Only an active flow of the workspace with a version will do.
    const trashed = await createFlow(ws, { name: "Trashed", definition: AREA_ECHO_V1 });
    await trashFlow(ws, trashed.flowId);
    const bad = await expectAppError(setFlowApiSource(ws, { flowApiId, flowId: trashed.flowId }), "validation_failed");
    expect(bad.errors?.[0]?.field).toBe("/flowId");
    const elsewhere = await createFlow(await designWorkspace(), { name: "Elsewhere", definition: AREA_ECHO_V1 });
    await expectAppError(setFlowApiSource(ws, { flowApiId, flowId: elsewhere.flowId }), "validation_failed");

    expect(await setFlowApiSource(ws, { flowApiId, flowId: next.flowId })).toEqual({ flowId: next.flowId, flowVersion: 2 });
    const page = await getFlowApiOrThrow(ws, flowApiId);
    expect(page.source.label).toBeNull();
    expect(page.flow).toMatchObject({ id: next.flowId, name: "Next", state: "active" });
    expect(page.selectedVersion).toEqual({ id: await versionId(next.flowId, 2), version: 2 });
    expect(page.availableVersion?.version).toBe(2);
    expect((await listFlowApis(ws)).apis[0]!.sourceLabel).toBeNull();

    // Serving unchanged: the old flow's version 1 (one result) until the new source is published.
    const before = await waitFor(
      "served",
      async () => {
        const r = await call(slug, secret);
        return r.status === 200 ? r : null;
      },
      10_000,
    );
    expect(before.body.results.map((x: { key: string }) => x.key)).toEqual(["out"]);
    await publishRelease(ws, { flowApiId, environmentId, flowVersionId: await versionId(next.flowId, 2) });
    const after = await waitFor(
      "new source served",
      async () => {
        const r = await call(slug, secret);
        return r.status === 200 && r.body.results.length === 2 ? r : null;
      },
      10_000,
    );
    expect(after.body.results.map((x: { key: string }) => x.key).sort()).toEqual(["out", "summary"]);
  });
});
