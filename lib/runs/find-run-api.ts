/**
 * Which Flow API a run belongs to, for a caller that names only the run (an MCP client's
 * `run_status(run_id)`): the run must be the consumer's own, in that environment. Returns
 * null for a malformed id, an unknown run and anyone else's run alike, so a caller cannot
 * tell them apart. The caller then loads the run through `getRunOrThrow` with the API's
 * key scope, exactly as the HTTP door does.
 */
import "server-only";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";

export async function findRunApiId(consumerId: string, environmentId: string, runId: string): Promise<string | null> {
  if (!isUuid(runId)) return null;
  const run = await db.run.findFirst({ where: { id: runId, consumerId, environmentId, mode: "api" }, select: { flowApiId: true } });
  return run?.flowApiId ?? null;
}
