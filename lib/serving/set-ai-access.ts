/**
 * The "Available to AI assistants" switch of a Flow API served in an environment
 * (`environment_api.aiAccess`; spec "AI-client access", design.md "MCP"). The console calls
 * this; the MCP door lists a tool only while the switch is on.
 *
 * Turning it on is refused with AppError
 * - `not_found` when the API is not published in that environment,
 * - `forbidden` when the plan of the API's workspace does not include AI access,
 * - `validation_failed` when the served flow version names an input and a parameter alike
 *   (lib/flows/ai-tool-collisions.ts; `errors` point into the flow version).
 * Turning it off always works (also on a plan that lost AI access). The change reaches every
 * web process at once: the `environment_api` trigger sends NOTIFY `auth_changed`.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { assertAiToolCompatible } from "@/lib/flows/ai-tool-collisions";
import { ZFlowVersion } from "@/lib/flows/definition";
import { findServedApis } from "@/lib/keys/served-apis";

/** Sets the switch (see module doc); returns the new value. */
export async function setAiAccess(input: { environmentId: string; flowApiId: string; enabled: boolean }): Promise<{ aiAccess: boolean }> {
  const [served] = await findServedApis({ environmentId: input.environmentId, flowApiId: input.flowApiId });
  if (!served) throw new AppError("not_found", "This API is not published in this environment.");
  if (input.enabled) {
    const plan = served.flowApi.workspace.plan;
    if (!plan.aiAccess) {
      throw new AppError(
        "forbidden",
        `The ${plan.name} plan of workspace "${served.flowApi.workspace.name}" does not include AI access; upgrade the plan to offer APIs to AI assistants.`,
      );
    }
    assertAiToolCompatible(ZFlowVersion.parse(served.release.flowVersion.definition));
  }
  const updated = await db.environmentApi.update({
    where: { environmentId_flowApiId: { environmentId: input.environmentId, flowApiId: input.flowApiId } },
    data: { aiAccess: input.enabled },
  });
  return { aiAccess: updated.aiAccess };
}
