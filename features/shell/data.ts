/**
 * What the shell shows around every page: the organization's workspaces and environments,
 * and where `/design` and `/console` lead a user. Server only; callers have already checked
 * the membership (lib/auth/session.ts).
 */
import "server-only";
import { cache } from "react";
import { db } from "@/lib/db";
import { listMemberships } from "@/lib/auth/session";
import { roleAllows } from "@/lib/auth/roles";
import { consolePath, designPath } from "@/features/shell/routes";

export interface TPlace {
  slug: string;
  name: string;
}

export const listWorkspaces = cache(async (organizationId: string): Promise<TPlace[]> =>
  db.workspace.findMany({ where: { organizationId }, select: { slug: true, name: true }, orderBy: { name: "asc" } }),
);

/** Environments, `production` first, then by name. */
export const listEnvironments = cache(async (organizationId: string): Promise<TPlace[]> => {
  const rows = await db.environment.findMany({ where: { organizationId }, select: { slug: true, name: true }, orderBy: { name: "asc" } });
  return rows.sort((a, b) => Number(b.slug === "production") - Number(a.slug === "production"));
});

/**
 * Where `/design` or `/console` leads the user: the first workspace (design) or environment
 * (console, where they are an admin) of their first organization (or of `organization`);
 * null when there is none.
 */
export async function defaultToolPath(tool: "design" | "console", userId: string, organization?: string): Promise<string | null> {
  for (const m of await listMemberships(userId)) {
    if (organization && m.slug !== organization) continue;
    if (tool === "console" && !roleAllows(m.role, "admin")) continue;
    const [first] = await (tool === "design" ? listWorkspaces : listEnvironments)(m.organizationId);
    if (first) return (tool === "design" ? designPath : consolePath)(m.slug, first.slug);
  }
  return null;
}

/** Whether the user is an admin of at least one organization (shows the console link). */
export async function isAdminAnywhere(userId: string): Promise<boolean> {
  return (await listMemberships(userId)).some((m) => roleAllows(m.role, "admin"));
}
