/**
 * The Flow APIs an environment serves, for the console, by slug: the serving release
 * (number, pinned flow version, publish time), the workspace and its plan's AI access, the
 * "Available to AI assistants" switch, and, when the switch cannot be turned on, why
 * (`aiBlockedReason`: the plan, or input/parameter names that collide,
 * lib/flows/ai-tool-collisions.ts).
 */
import "server-only";
import { aiToolCollisions } from "@/lib/flows/ai-tool-collisions";
import { ZFlowVersion } from "@/lib/flows/definition";
import type { TEnvironmentRef } from "@/lib/runs/scope";
import { findServedApis } from "@/lib/keys/served-apis";

export async function listServedApis(scope: TEnvironmentRef) {
  const rows = await findServedApis({ environmentId: scope.environmentId, flowApi: { organizationId: scope.organizationId } });
  return rows.map((r) => {
    const plan = r.flowApi.workspace.plan;
    let aiBlockedReason: string | null = null;
    if (!plan.aiAccess) aiBlockedReason = `The ${plan.name} plan of workspace "${r.flowApi.workspace.name}" does not include AI access.`;
    else {
      const collisions = aiToolCollisions(ZFlowVersion.parse(r.release.flowVersion.definition));
      if (collisions.length) aiBlockedReason = `The flow cannot be a tool: ${collisions.map((c) => c.message).join(" ")}`;
    }
    return {
      flowApiId: r.flowApiId,
      slug: r.flowApi.slug,
      name: r.flowApi.name,
      description: r.flowApi.description,
      workspace: { slug: r.flowApi.workspace.slug, name: r.flowApi.workspace.name, planName: plan.name, planAiAccess: plan.aiAccess },
      release: { number: r.release.number, flowVersion: r.release.flowVersion.version, publishedAt: r.release.publishedAt },
      flowName: r.flowApi.flow?.name ?? null,
      aiAccess: r.aiAccess,
      aiBlockedReason,
    };
  });
}

export type TServedApi = Awaited<ReturnType<typeof listServedApis>>[number];
