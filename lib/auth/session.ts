/**
 * Who is signed in, and what they may do: the ONE check every page, route handler and
 * server action goes through (a proxy/middleware gate alone is not enough:
 * CVE-2025-29927). Each call reads the session token and then the database: the user must
 * exist with the token's `sessionVersion`, and roles come from `Membership` rows, never
 * from the token. Results are memoised per request (React `cache`).
 *
 * - `currentUser()`: the signed-in user or null.
 * - `requireUser()`: the user, or AppError `unauthorized`.
 * - `requireMember({organization, role})`: a `TMemberScope`, or AppError `not_found`
 *   (no such organization, or not a member: the same answer) or `forbidden` (a member
 *   whose role is too low).
 * - `requireWorkspace` / `requireEnvironment`: the member scope plus the workspace
 *   (`TDesignerScope` for the run domain) or the environment; `not_found` when it is not
 *   the organization's.
 */
import "server-only";
import { cache } from "react";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { auth } from "@/lib/auth/next-auth";
import { roleAllows, type TRole } from "@/lib/auth/roles";
import type { TDesignerScope } from "@/lib/runs/scope";

export interface TSessionUser {
  id: string;
  email: string;
  name: string;
  sessionVersion: number;
}

export interface TMemberScope {
  userId: string;
  organizationId: string;
  organizationSlug: string;
  organizationName: string;
  role: TRole;
}

export interface TWorkspaceScope extends TMemberScope {
  workspace: { id: string; slug: string; name: string };
  /** The run domain's scope of a designer in this workspace (lib/runs/scope.ts). */
  designer: TDesignerScope;
}

export interface TEnvironmentScope extends TMemberScope {
  environment: { id: string; slug: string; name: string };
}

const ZClaims = z.object({ userId: z.string().uuid(), sessionVersion: z.number().int() });

/** The signed-in user, checked against the database; null when signed out or revoked. */
export const currentUser = cache(async (): Promise<TSessionUser | null> => {
  const session = await auth();
  const claims = ZClaims.safeParse(session);
  if (!claims.success) return null;
  const user = await db.user.findUnique({
    where: { id: claims.data.userId },
    select: { id: true, email: true, name: true, sessionVersion: true },
  });
  if (!user || user.sessionVersion !== claims.data.sessionVersion) return null;
  return user;
});

export async function requireUser(): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) throw new AppError("unauthorized", "Sign in to continue.");
  return user;
}

/** Every organization the user belongs to, with the role, by name. */
export const listMemberships = cache(async (userId: string) => {
  const rows = await db.membership.findMany({
    where: { userId },
    include: { organization: { select: { id: true, slug: true, name: true } } },
    orderBy: { organization: { name: "asc" } },
  });
  return rows.map((m) => ({ organizationId: m.organization.id, slug: m.organization.slug, name: m.organization.name, role: m.role as TRole }));
});

export async function requireMember(opts: { organization: string; role: TRole }): Promise<TMemberScope> {
  const user = await requireUser();
  const membership = (await listMemberships(user.id)).find((m) => m.slug === opts.organization);
  if (!membership) throw new AppError("not_found", `No organization "${opts.organization}" is visible to you.`);
  if (!roleAllows(membership.role, opts.role)) {
    throw new AppError("forbidden", opts.role === "admin" ? "Only admins of this organization may do this." : "You may not do this in this organization.");
  }
  return {
    userId: user.id,
    organizationId: membership.organizationId,
    organizationSlug: membership.slug,
    organizationName: membership.name,
    role: membership.role,
  };
}

/** A designer (or admin) in one workspace of the organization. */
export async function requireWorkspace(opts: { organization: string; workspace: string }): Promise<TWorkspaceScope> {
  const member = await requireMember({ organization: opts.organization, role: "designer" });
  const workspace = await db.workspace.findUnique({
    where: { organizationId_slug: { organizationId: member.organizationId, slug: opts.workspace } },
    select: { id: true, slug: true, name: true },
  });
  if (!workspace) throw new AppError("not_found", `No workspace "${opts.workspace}" in ${member.organizationName}.`);
  return { ...member, workspace, designer: { kind: "designer", userId: member.userId, workspaceId: workspace.id } };
}

/** An admin in one environment of the organization (the serving console). */
export async function requireEnvironment(opts: { organization: string; environment: string }): Promise<TEnvironmentScope> {
  const member = await requireMember({ organization: opts.organization, role: "admin" });
  const environment = await db.environment.findUnique({
    where: { organizationId_slug: { organizationId: member.organizationId, slug: opts.environment } },
    select: { id: true, slug: true, name: true },
  });
  if (!environment) throw new AppError("not_found", `No environment "${opts.environment}" in ${member.organizationName}.`);
  return { ...member, environment };
}
