/**
 * The published APIs of an environment as the doors run them: one query with the serving
 * release, its flow version and the workspace's plan, and one mapping of a row to the path,
 * key scope and run target a key caller carries. Shared by the HTTP, MCP and OGC doors.
 */
import "server-only";
import { db } from "@/lib/db";
import { ZFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TApiPath, TKeyScope, TRunTarget } from "@/lib/runs/scope";

const SERVED_INCLUDE = {
  release: { include: { flowVersion: true } },
  flowApi: { include: { workspace: { include: { plan: true } }, flow: { select: { name: true } } } },
} satisfies Prisma.EnvironmentApiInclude;

/** A resolved key caller: who calls (scope), what it runs (target), and its limits. */
export interface TKeyCaller {
  path: TApiPath;
  scope: TKeyScope;
  target: TRunTarget;
  keyId: string;
  plan: { rateLimitPerMinute: number };
}

type TServedRow = Prisma.EnvironmentApiGetPayload<{ include: typeof SERVED_INCLUDE }>;

/** A served API seen through one consumer's key. */
export type TServedApiCall = ReturnType<typeof servedApiCall>;

/** The served APIs matching `where`, in code-point order of their slugs (stable whatever the database's collation). */
export async function findServedApis(where: Prisma.EnvironmentApiWhereInput): Promise<TServedRow[]> {
  const rows = await db.environmentApi.findMany({ where, include: SERVED_INCLUDE });
  return rows.sort((a, b) => (a.flowApi.slug < b.flowApi.slug ? -1 : a.flowApi.slug > b.flowApi.slug ? 1 : 0));
}

/** One served row as `consumer` calls it; `flow` when the caller already parsed the definition. */
export function servedApiCall(
  s: TServedRow,
  path: Pick<TApiPath, "organization" | "environment">,
  consumer: { id: string; environmentId: string },
  flow: TFlowVersion = ZFlowVersion.parse(s.release.flowVersion.definition),
): Omit<TKeyCaller, "keyId"> & { name: string; description: string | null; flowName: string | null } {
  return {
    path: { organization: path.organization, environment: path.environment, api: s.flowApi.slug },
    scope: { kind: "key", consumerId: consumer.id, flowApiId: s.flowApiId, environmentId: consumer.environmentId },
    target: {
      workspaceId: s.flowApi.workspaceId,
      flowApiId: s.flowApiId,
      flowVersionId: s.release.flowVersionId,
      flowVersionNumber: s.release.flowVersion.version,
      releaseId: s.releaseId,
      flow,
    },
    name: s.flowApi.name,
    description: s.flowApi.description,
    flowName: s.flowApi.flow?.name ?? null,
    plan: { rateLimitPerMinute: s.flowApi.workspace.plan.rateLimitPerMinute },
  };
}
