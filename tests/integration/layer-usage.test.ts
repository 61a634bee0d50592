/**
 * layerUsage (lib/layers/layer-usage.ts) on the seeded demo and on a fresh workspace: what the
 * Add layer dialog names before it replaces a layer. The expected APIs and inputs are those of
 * the README's demo table (cities-in-area, country-stats, nearby-cities and their inputs), not
 * read back from the code.
 */
import { describe, expect, it } from "vitest";
import { layerUsage } from "@/lib/layers/layer-usage";
import { demoIds, suffix } from "./contract-helpers";
import { designWorkspace, importLayer } from "./design-helpers";

describe("layerUsage", () => {
  it("names production and every demo API with an input that takes the feature layer world-cities", async () => {
    const { workspaceId } = await demoIds();
    const u = await layerUsage({ workspaceId }, "world-cities");
    expect(u.layer).toMatchObject({ id: "world-cities", name: "World cities", kind: "features", itemCount: 135_233 });
    // Other tests may publish more APIs in the demo workspace, and in environments of their own; the demo's are always there.
    expect(u.environments).toContainEqual({ slug: "production", name: "Production" });
    const demo = u.apis.filter((a) => ["cities-in-area", "country-stats", "nearby-cities"].includes(a.slug));
    expect(demo.map((a) => [a.slug, a.environment, a.inputs])).toEqual([
      ["cities-in-area", "production", ["cities"]],
      ["country-stats", "production", ["cities", "countries"]],
      ["nearby-cities", "production", ["cities"]],
    ]);
    for (const a of demo) expect(a.release).toBeGreaterThanOrEqual(1);
  });

  it("matches a table to table inputs only: world-capitals is read by nearby-cities' places", async () => {
    const { workspaceId } = await demoIds();
    const u = await layerUsage({ workspaceId }, "world-capitals");
    expect(u.apis.filter((a) => a.slug === "nearby-cities").map((a) => a.inputs)).toEqual([["places"]]);
    expect(u.apis.some((a) => a.slug === "country-stats" || a.slug === "cities-in-area")).toBe(false);
  });

  it("says nothing reads a layer no environment may read, and knows no layer of another workspace", async () => {
    const ws = await designWorkspace();
    const id = `usage-${suffix()}`;
    await importLayer(ws, { id, name: "Lonely", format: "csv", bytes: new TextEncoder().encode("name,lon,lat\na,7,46\n") });
    expect(await layerUsage(ws, id)).toEqual({ layer: { id, name: "Lonely", kind: "features", itemCount: 1 }, environments: [], apis: [] });
    expect(await layerUsage(ws, "world-cities")).toEqual({ layer: null, environments: [], apis: [] });
    expect(await layerUsage(ws, `no-such-${suffix()}`)).toEqual({ layer: null, environments: [], apis: [] });
  });
});
