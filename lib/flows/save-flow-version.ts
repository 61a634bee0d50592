/**
 * Saving a flow version: the document is checked by `validateFlowVersion` (the validator
 * the server runs everywhere) and stored as the next number (1, 2, ...). Versions are never
 * changed afterwards; releases keep pointing at the one they pinned.
 *
 * - `createFlow(scope, {name, description?, definition})`: a new active flow with version 1.
 * - `saveFlowVersion(scope, flowId, definition)`: version N+1 of an active flow.
 *
 * @throws AppError `validation_failed` with every fault of the document (fields are JSON
 *   Pointers into the document, or `/name`); `not_found` for a flow not in the workspace;
 *   `conflict` when the flow is in the trash (restore it first) or a concurrent save took
 *   the same number (try again).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError, validationError } from "@/lib/errors";
import { validateFlowVersion } from "@/lib/flows/validate-flow-version";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isUniqueViolation } from "@/lib/database/unique-violation";

export const FLOW_NAME_MAX = 100;

function validDefinition(definition: unknown) {
  const v = validateFlowVersion(definition);
  if (!v.ok) throw validationError(v.errors, `The flow version has ${v.errors.length} problem${v.errors.length === 1 ? "" : "s"}.`);
  // Stored as written (not with defaults filled in), so the editor shows what the designer wrote.
  return definition as Prisma.InputJsonValue;
}

export async function createFlow(
  scope: { workspaceId: string },
  input: { name: string; description?: string; definition: unknown },
): Promise<{ flowId: string; version: number }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > FLOW_NAME_MAX) {
    throw validationError([{ field: "/name", code: "invalid_value", message: `A flow needs a name of 1 to ${FLOW_NAME_MAX} characters.` }]);
  }
  const definition = validDefinition(input.definition);
  const flow = await db.flow.create({
    data: { workspaceId: scope.workspaceId, name, description: input.description?.trim() || null, versions: { create: { version: 1, definition } } },
  });
  return { flowId: flow.id, version: 1 };
}

export async function saveFlowVersion(scope: { workspaceId: string }, flowId: string, raw: unknown): Promise<{ flowVersionId: string; version: number }> {
  const definition = validDefinition(raw);
  try {
    return await db.$transaction(async (tx) => {
      const flow = await tx.flow.findFirst({ where: { id: flowId, workspaceId: scope.workspaceId, state: { not: "deleted" } } });
      if (!flow) throw new AppError("not_found", "No such flow in this workspace.");
      if (flow.state === "trashed") throw new AppError("conflict", "This flow is in the trash: restore it before saving a new version.");
      const last = await tx.flowVersion.findFirst({ where: { flowId }, orderBy: { version: "desc" }, select: { version: true } });
      const version = (last?.version ?? 0) + 1;
      const row = await tx.flowVersion.create({ data: { flowId, version, definition } });
      return { flowVersionId: row.id, version };
    });
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw new AppError("conflict", "Someone saved a version of this flow at the same moment; reload and try again.");
    }
    throw e;
  }
}
