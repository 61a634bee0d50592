/**
 * Looks up a published API by its path slugs without a key (the OpenAPI document and the
 * docs page are public, so a caller can be sent a link before holding a key). Only APIs
 * published (served) in the environment are found; drafts and unknown slugs give null.
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ZFlowVersion } from "@/lib/flows/definition";
import { apiBasePath, type TApiPath } from "@/lib/runs/scope";
import { buildOpenApi } from "@/lib/openapi/build-openapi";
import type { TOpenApiDocument } from "@/lib/openapi/types";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import { readableLayersOf } from "@/lib/layers/list-layers";

/**
 * The OpenAPI document of a published API, or null when none is published at `path`. Its
 * `servers` URL starts with `origin` (`publicOrigin`, lib/http/request-origin.ts); its inputs
 * list the layers the environment may read now (`layers`, else read here).
 */
export async function publishedOpenApi(path: TApiPath, origin: string, layers?: readonly TReadableLayer[]): Promise<TOpenApiDocument | null> {
  const served = await db.environmentApi.findFirst({
    where: {
      environment: { slug: path.environment, organization: { slug: path.organization } },
      flowApi: { slug: path.api, organization: { slug: path.organization } },
    },
    include: { flowApi: true, release: { include: { flowVersion: true } } },
  });
  if (!served) return null;
  return buildOpenApi({
    ...path,
    name: served.flowApi.name,
    description: served.flowApi.description,
    flowVersion: served.release.flowVersion.version,
    flow: ZFlowVersion.parse(served.release.flowVersion.definition),
    serverUrl: origin + apiBasePath(path),
    maxBodyBytes: env().MAX_BODY_BYTES,
    readableLayers:
      layers ?? (await readableLayersOf({ organization: path.organization, environment: path.environment, workspaceId: served.flowApi.workspaceId })),
  });
}

/**
 * The layers a call of the API at `path` may name (for `{"layer_id": ...}`), by name: those
 * `{organization}/{environment}` may read of the API's workspace (ids resolve there). None
 * when no such API exists.
 */
export async function readableLayers(path: TApiPath): Promise<TReadableLayer[]> {
  const api = await db.flowApi.findFirst({ where: { slug: path.api, organization: { slug: path.organization } }, select: { workspaceId: true } });
  if (!api) return [];
  return readableLayersOf({ organization: path.organization, environment: path.environment, workspaceId: api.workspaceId });
}
