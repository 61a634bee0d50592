/**
 * Whether an environment exists, for the OAuth and MCP answers that depend on it: its
 * protected resource metadata (404 when not), the authorization server's resource indicators
 * (`invalid_target` when not) and the MCP door's refusal of a request without a valid
 * credential (404 rather than a 401 whose challenge points at metadata that answers 404).
 */
import "server-only";
import { db } from "@/lib/db";
import type { TEnvironmentPath } from "@/lib/oauth/resource";

/** True when `path` names an environment of an organization (by slugs). */
export async function environmentExists(path: TEnvironmentPath): Promise<boolean> {
  return (await db.environment.count({ where: { slug: path.environment, organization: { slug: path.organization } } })) > 0;
}
