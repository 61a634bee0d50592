/**
 * Layers a designer can manage (lib/layers/delete-layer.ts, lib/layers/rename-layer.ts, behind
 * `PATCH` / `DELETE /api/design/{organization}/{workspace}/layers/{layerId}`; e2e/layer-manage.spec.ts
 * drives the same over HTTP from the page): deleting is refused, naming APIs, releases and
 * environments, while published APIs may read the layer, and otherwise removes the layer row,
 * its readable-layer rows and its file; renaming changes the name only, with errors on `/name`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { blobStore } from "@/lib/blobs";
import { deleteLayer } from "@/lib/layers/delete-layer";
import { renameLayer } from "@/lib/layers/rename-layer";
import { listLayers } from "@/lib/layers/list-layers";
import { setLayerReadable } from "@/lib/serving/environment-layers";
import { sql } from "./helpers";
import { demoIds, suffix } from "./contract-helpers";
import { designWorkspace, expectAppError, importLayer } from "./design-helpers";

const enc = (s: string) => new TextEncoder().encode(s);

afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

async function layerRow(workspaceId: string, id: string) {
  return (await sql().query(`SELECT name, "fileKey" FROM layer WHERE "workspaceId" = $1 AND id = $2`, [workspaceId, id])).rows[0] ?? null;
}

describe("deleting a layer", () => {
  it("is refused while published APIs may read it, naming them, their releases and the environments", async () => {
    const { workspaceId } = await demoIds();
    const before = await layerRow(workspaceId, "world-cities");
    const err = await expectAppError(deleteLayer({ workspaceId }, "world-cities"), "conflict");
    expect(err.detail).toMatch(/cities-in-area \(release \d+ in production\)/);
    expect(err.detail).toMatch(/nearby-cities \(release \d+ in production\)/);
    // Other tests may add environments of their own that read it: production is always among them.
    expect(err.detail).toMatch(/Environments that may read it: [^.]*\bproduction\b/);
    expect(await layerRow(workspaceId, "world-cities")).toEqual(before);
    expect(await blobStore().size(before.fileKey)).toBeGreaterThan(0);
  });

  it("otherwise deletes the layer, its readable-layer rows and its file; the id is then unknown", async () => {
    const ws = await designWorkspace();
    const other = await designWorkspace();
    const ids = await demoIds();
    const id = `gone-${suffix()}`;
    await importLayer(ws, { id, name: "Gone", format: "csv", bytes: enc("lon,lat\n1,1\n") });
    await importLayer(other, { id, name: "Stays", format: "csv", bytes: enc("lon,lat\n2,2\n") });
    // Readable in production, where no API of this workspace is served: nothing published reads it.
    await setLayerReadable(ids, { workspaceId: ws.workspaceId, layerId: id, readable: true });
    const { fileKey } = await layerRow(ws.workspaceId, id);
    expect(await blobStore().size(fileKey)).toBeGreaterThan(0);

    await deleteLayer(ws, id);
    expect(await layerRow(ws.workspaceId, id)).toBeNull();
    expect((await sql().query(`SELECT 1 FROM environment_layer WHERE "workspaceId" = $1 AND "layerId" = $2`, [ws.workspaceId, id])).rowCount).toBe(0);
    expect(await blobStore().size(fileKey)).toBeNull();
    await expectAppError(deleteLayer(ws, id), "not_found");
    // Another workspace's layer of the same id is untouched, and cannot be deleted from here.
    expect((await layerRow(other.workspaceId, id))?.name).toBe("Stays");
    await expectAppError(deleteLayer(ws, `no-such-${suffix()}`), "not_found");
  });
});

describe("renaming a layer", () => {
  it("changes the name, trimmed, and keeps the id; refuses an empty or too long name on /name", async () => {
    const ws = await designWorkspace();
    const id = `named-${suffix()}`;
    await importLayer(ws, { id, name: "Old name", format: "csv", bytes: enc("lon,lat\n1,1\n") });
    expect(await renameLayer(ws, id, "  New name  ")).toEqual({ id, name: "New name" });
    expect((await listLayers(ws)).find((l) => l.id === id)?.name).toBe("New name");
    for (const bad of ["", "   ", "x".repeat(201)]) {
      const err = await expectAppError(renameLayer(ws, id, bad), "validation_failed");
      expect(err.errors).toEqual([{ field: "/name", code: "invalid_value", message: "A layer needs a name of 1 to 200 characters." }]);
    }
    const unstorable = await expectAppError(renameLayer(ws, id, "a\u0000b"), "validation_failed");
    expect(unstorable.errors?.[0]?.field).toBe("/name");
    expect((await listLayers(ws)).find((l) => l.id === id)?.name).toBe("New name");
    await expectAppError(renameLayer(await designWorkspace(), id, "Elsewhere"), "not_found");
  });
});
