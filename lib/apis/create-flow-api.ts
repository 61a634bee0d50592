/**
 * "New API": a Flow API (the only kind so far) created as a draft from an active flow of the
 * workspace, selecting the flow's latest version. Name and slug are the caller's, each unique
 * among the organization's APIs that are not deleted: the slug is part of the public address
 * `/public/api/{organization}/{environment}/{slug}`, the name (compared without regard to case)
 * is how the console, its filters and its messages tell APIs apart. Creations in one
 * organization take its advisory lock, so two cannot both take one name.
 *
 * Plan limit: every Flow API of the workspace counts, drafts included, deleted ones not
 * (`Plan.maxFlowApis`; lib/apis/delete-flow-api.ts).
 * The count and the insert happen in one transaction holding the workspace row lock, so two
 * concurrent creations cannot both take the last place.
 *
 * @throws AppError `validation_failed` (`/name`, `/slug` format or taken, `/flowId` not an
 *   active flow of the workspace or without a version), `conflict` at the plan's limit
 *   (the message names the plan and the limit).
 */
import "server-only";
import { db, type TTx } from "@/lib/db";
import { AppError, validationError } from "@/lib/errors";
import { isUniqueViolation } from "@/lib/database/unique-violation";

export const API_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const API_SLUG_MAX = 63;
export const API_NAME_MAX = 100;

export interface TCreateFlowApiInput {
  kind: "flow";
  flowId: string;
  name: string;
  slug: string;
  description?: string;
}

const nameTaken = (name: string) => validationError([{ field: "/name", code: "name_taken", message: `The name "${name}" is already used by another API.` }]);
const slugTaken = (slug: string) => validationError([{ field: "/slug", code: "slug_taken", message: `The slug "${slug}" is already used by another API.` }]);

/** The latest version of the workspace's active flow `flowId`; AppError `validation_failed` at `/flowId` when there is none. */
export async function latestFlowVersion(tx: TTx, workspaceId: string, flowId: string): Promise<{ id: string; version: number }> {
  const flow = await tx.flow.findFirst({
    where: { id: flowId, workspaceId, state: "active" },
    select: { versions: { orderBy: { version: "desc" }, take: 1, select: { id: true, version: true } } },
  });
  const message = flow ? "This flow has no saved version yet." : "Choose an active flow of this workspace.";
  if (!flow?.versions[0]) throw validationError([{ field: "/flowId", code: "invalid_value", message }]);
  return flow.versions[0];
}

export async function createFlowApi(
  scope: { organizationId: string; workspaceId: string },
  input: TCreateFlowApiInput,
): Promise<{ flowApiId: string; slug: string }> {
  const name = input.name.trim();
  const slug = input.slug.trim();
  const errors = [];
  if (name.length === 0 || name.length > API_NAME_MAX)
    errors.push({ field: "/name", code: "invalid_value", message: `A name of 1 to ${API_NAME_MAX} characters is required.` });
  if (!API_SLUG_PATTERN.test(slug) || slug.length > API_SLUG_MAX)
    errors.push({
      field: "/slug",
      code: "invalid_format",
      message: `Use lower-case letters, digits and single hyphens (at most ${API_SLUG_MAX} characters), e.g. "cities-in-area".`,
    });
  if (errors.length > 0) throw validationError(errors);

  try {
    return await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM workspace WHERE id = ${scope.workspaceId}::uuid FOR UPDATE`;
      const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: scope.workspaceId }, include: { plan: true } });
      const count = await tx.flowApi.count({ where: { workspaceId: scope.workspaceId, deletedAt: null } });
      if (count >= workspace.plan.maxFlowApis) {
        throw new AppError(
          "conflict",
          `Your plan "${workspace.plan.name}" allows ${workspace.plan.maxFlowApis} APIs in this workspace, drafts included, and all ${count} are in use. Delete an API or change the plan to create another.`,
        );
      }
      const latest = await latestFlowVersion(tx, scope.workspaceId, input.flowId);
      if (await tx.flowApi.findFirst({ where: { organizationId: scope.organizationId, slug, deletedAt: null }, select: { id: true } })) throw slugTaken(slug);
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`flow-api-name:${scope.organizationId}`}, 0))`;
      const sameName = { organizationId: scope.organizationId, name: { equals: name, mode: "insensitive" as const }, deletedAt: null };
      if (await tx.flowApi.findFirst({ where: sameName, select: { id: true } })) throw nameTaken(name);
      const api = await tx.flowApi.create({
        data: {
          organizationId: scope.organizationId,
          workspaceId: scope.workspaceId,
          flowId: input.flowId,
          selectedFlowVersionId: latest.id,
          name,
          slug,
          description: input.description?.trim() || null,
          status: "draft",
        },
      });
      return { flowApiId: api.id, slug: api.slug };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw slugTaken(slug);
    throw e;
  }
}
