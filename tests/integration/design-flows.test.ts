/**
 * Flows in the design tool, without the browser: saving validates with the server's flow
 * validator and numbers versions 1, 2, ...; versions are immutable; trash, restore and
 * permanent deletion move the flow's state (deletion only from the trash) and keep its
 * versions; a flow of another workspace is not found.
 */
import { describe, expect, it } from "vitest";
import { createFlow, saveFlowVersion } from "@/lib/flows/save-flow-version";
import { deleteFlowPermanently, restoreFlow, trashFlow } from "@/lib/flows/trash-flow";
import { listFlows } from "@/lib/flows/list-flows";
import { getFlowOrThrow } from "@/lib/flows/get-flow-or-throw";
import { sql } from "./helpers";
import { AREA_ECHO_V1, AREA_ECHO_V2, designWorkspace, expectAppError } from "./design-helpers";

describe("saving flow versions", () => {
  it("creates a flow with version 1 and numbers later versions, leaving earlier ones unchanged", async () => {
    const ws = await designWorkspace();
    const { flowId, version } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    expect(version).toBe(1);
    expect((await saveFlowVersion(ws, flowId, AREA_ECHO_V2)).version).toBe(2);
    expect((await saveFlowVersion(ws, flowId, AREA_ECHO_V1)).version).toBe(3);
    const { rows } = await sql().query(`SELECT version, definition FROM flow_version WHERE "flowId" = $1 ORDER BY version`, [flowId]);
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3]);
    expect(rows[0].definition).toEqual(AREA_ECHO_V1);
    expect(rows[1].definition).toEqual(AREA_ECHO_V2);
    const listed = (await listFlows(ws)).find((f) => f.id === flowId)!;
    expect(listed.versions.map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it("refuses a faulty document with every problem named by JSON Pointer, and saves nothing", async () => {
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    const bad = {
      ...AREA_ECHO_V1,
      steps: [{ id: "f", type: "no_such_step", source: "area" }],
      results: [{ key: "out", kind: "layer", from: "missing" }],
    };
    const err = await expectAppError(saveFlowVersion(ws, flowId, bad), "validation_failed");
    const fields = err.errors!.map((e) => e.field);
    expect(fields).toContain("/steps/0/type");
    expect(fields).toContain("/results/0/from");
    const { rows } = await sql().query(`SELECT count(*)::int AS n FROM flow_version WHERE "flowId" = $1`, [flowId]);
    expect(rows[0].n).toBe(1);
    const noName = await expectAppError(createFlow(ws, { name: "  ", definition: AREA_ECHO_V1 }), "validation_failed");
    expect(noName.errors![0]!.field).toBe("/name");
  });

  it("keeps flows to their workspace", async () => {
    const a = await designWorkspace();
    const b = await designWorkspace();
    const { flowId } = await createFlow(a, { name: "Mine", definition: AREA_ECHO_V1 });
    await expectAppError(getFlowOrThrow(b, flowId), "not_found");
    await expectAppError(saveFlowVersion(b, flowId, AREA_ECHO_V1), "not_found");
    await expectAppError(trashFlow(b, flowId), "not_found");
    expect(await listFlows(b)).toEqual([]);
  });
});

describe("trash, restore, delete permanently", () => {
  it("moves a flow through its states; a trashed flow takes no new version; deletion only from the trash keeps the versions", async () => {
    const ws = await designWorkspace();
    const { flowId } = await createFlow(ws, { name: "Echo", definition: AREA_ECHO_V1 });
    await expectAppError(deleteFlowPermanently(ws, flowId), "conflict");
    await expectAppError(restoreFlow(ws, flowId), "conflict");

    await trashFlow(ws, flowId);
    expect((await listFlows(ws))[0]!.state).toBe("trashed");
    await expectAppError(saveFlowVersion(ws, flowId, AREA_ECHO_V2), "conflict");
    await expectAppError(trashFlow(ws, flowId), "conflict");

    await restoreFlow(ws, flowId);
    expect((await listFlows(ws))[0]!.state).toBe("active");
    expect((await saveFlowVersion(ws, flowId, AREA_ECHO_V2)).version).toBe(2);

    await trashFlow(ws, flowId);
    await deleteFlowPermanently(ws, flowId);
    expect(await listFlows(ws)).toEqual([]);
    await expectAppError(getFlowOrThrow(ws, flowId), "not_found");
    await expectAppError(restoreFlow(ws, flowId), "not_found");
    const { rows } = await sql().query(
      `SELECT f.state, count(v.*)::int AS versions FROM flow f JOIN flow_version v ON v."flowId" = f.id WHERE f.id = $1 GROUP BY f.state`,
      [flowId],
    );
    expect(rows[0]).toEqual({ state: "deleted", versions: 2 });
  });
});
