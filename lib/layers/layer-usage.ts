/**
 * What reads a workspace layer, said before the layer is replaced: the
 * environments that may read it (their callers name it as `{"layer_id": ...}`) and the
 * published APIs served there whose release's flow version has an input that takes a layer
 * of its kind (a feature layer for `layer` inputs, a table for `table` inputs; the rule of
 * `checkRunRequest` in lib/runs/check-run-request.ts). Try it in the workspace may read any of
 * its layers and is not listed.
 */
import "server-only";
import { db } from "@/lib/db";
import { layerKindOf } from "@/lib/flows/input-geometry";

export interface TLayerUsage {
  /** Null when the workspace has no layer with that id (nothing reads it). */
  layer: { id: string; name: string; kind: "features" | "table"; itemCount: number } | null;
  environments: { slug: string; name: string }[];
  /** One per serving (API, environment) with the inputs that could read the layer, by API slug then environment. */
  apis: { slug: string; name: string; environment: string; release: number; inputs: string[] }[];
}

/** The inputs of a flow version document that accept a layer of `kind` (`{name, kind}` entries of `inputs`). */
export function layerInputsOf(definition: unknown, kind: "features" | "table"): string[] {
  const inputs = (definition as { inputs?: unknown } | null)?.inputs;
  if (!Array.isArray(inputs)) return [];
  return inputs.filter((i) => i && typeof i === "object" && layerKindOf(i) === kind).map((i) => String((i as { name?: unknown }).name));
}

export async function layerUsage(scope: { workspaceId: string }, layerId: string): Promise<TLayerUsage> {
  const layer = await db.layer.findFirst({
    where: { id: layerId, workspaceId: scope.workspaceId },
    select: { id: true, name: true, kind: true, itemCount: true, environments: { select: { environment: { select: { id: true, slug: true, name: true } } } } },
  });
  if (!layer) return { layer: null, environments: [], apis: [] };
  const environments = layer.environments.map((e) => e.environment).sort((a, b) => a.slug.localeCompare(b.slug));
  const servings = await db.environmentApi.findMany({
    where: { environmentId: { in: environments.map((e) => e.id) }, flowApi: { workspaceId: scope.workspaceId } },
    select: {
      environment: { select: { slug: true } },
      flowApi: { select: { slug: true, name: true } },
      release: { select: { number: true, flowVersion: { select: { definition: true } } } },
    },
  });
  const apis = servings
    .map((s) => ({
      slug: s.flowApi.slug,
      name: s.flowApi.name,
      environment: s.environment.slug,
      release: s.release.number,
      inputs: layerInputsOf(s.release.flowVersion.definition, layer.kind),
    }))
    .filter((a) => a.inputs.length > 0)
    .sort((a, b) => a.slug.localeCompare(b.slug) || a.environment.localeCompare(b.environment));
  return {
    layer: { id: layer.id, name: layer.name, kind: layer.kind, itemCount: layer.itemCount },
    environments: environments.map(({ slug, name }) => ({ slug, name })),
    apis,
  };
}
