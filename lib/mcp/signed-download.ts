/**
 * A result download by signed link (lib/mcp/result-link.ts): `GET
 * /public/api/{organization}/{environment}/{api}/runs/{run_id}/results/{key}?format=&expires=&signature=`
 * with no API key or token. The link is the credential, and it grants one file: it is
 * answered as the run's own consumer's key would answer that download (the same
 * `getResultFile`, the same file response with `ETag`, ranges and 304), with these checks:
 *
 * - the link is valid (made here, unaltered, not expired), else 401 `unauthorized`;
 * - the API is still published in the environment (404 `not_found`), the run is one of it
 *   (404, as an unknown run), and the run's consumer still has its grant (403 `forbidden`).
 *
 * A download by link spends no per-minute quota (it has no key; the tool call that made the
 * link spent one, and the link lives an hour at most), and it is metered and logged as the
 * key download is: one API request of the API's workspace when answered 2xx, the call log
 * under the run's consumer.
 */
import "server-only";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";
import { AppError, ERROR_STATUS } from "@/lib/errors";
import { fileResponse } from "@/lib/http/file-response";
import { verifyResultLink } from "@/lib/mcp/result-link";
import { findServedApis } from "@/lib/keys/served-apis";
import { recordCall, type TCallRecord } from "@/lib/metering/call-counter";
import { addUsage } from "@/lib/metering/usage";
import { getResultFile } from "@/lib/runs/get-result-file";
import type { TApiPath, TKeyScope } from "@/lib/runs/scope";

/** The 401 of a link that is not (or no longer) valid. */
function invalidLink(): AppError {
  return new AppError(
    "unauthorized",
    "This download link is not valid: it has expired or was altered. Ask for a new one (the MCP tool run_result makes one), or download the file with an API key in X-Api-Key.",
  );
}

/** Serves a download by signed link (see module doc); throws AppError for the refusals. */
export async function serveSignedDownload(req: Request, params: TApiPath & { runId: string; key: string }): Promise<Response> {
  const path: TApiPath = { organization: params.organization, environment: params.environment, api: params.api };
  let log: Omit<TCallRecord, "status"> = { ...path, door: "http", consumerId: null };
  try {
    const link = verifyResultLink({ path, runId: params.runId, key: params.key }, new URL(req.url).searchParams);
    if (!link || !isUuid(link.runId)) throw invalidLink();
    const [served] = await findServedApis({
      environment: { slug: path.environment, organization: { slug: path.organization } },
      flowApi: { slug: path.api },
    });
    if (!served) throw new AppError("not_found", `No API "${path.api}" is published in environment "${path.environment}".`);
    const run = await db.run.findFirst({
      where: { id: link.runId, flowApiId: served.flowApiId, environmentId: served.environmentId, mode: "api" },
      select: { consumerId: true },
    });
    if (!run?.consumerId) throw new AppError("not_found", "No such run exists for this link.");
    log = { ...log, consumerId: run.consumerId };
    const grant = await db.accessGrant.findUnique({ where: { consumerId_flowApiId: { consumerId: run.consumerId, flowApiId: served.flowApiId } } });
    if (!grant) throw new AppError("forbidden", `The consumer this link was made for no longer has access to API "${path.api}".`);
    const scope: TKeyScope = { kind: "key", consumerId: run.consumerId, flowApiId: served.flowApiId, environmentId: served.environmentId };
    const res = await fileResponse(req, await getResultFile(scope, link.runId, link.key, link.format), "private, max-age=3600");
    if (res.status >= 200 && res.status < 300) await addUsage(served.flowApi.workspaceId, { apiRequests: 1 });
    recordCall({ ...log, status: res.status });
    return res;
  } catch (err) {
    if (err instanceof AppError) recordCall({ ...log, status: ERROR_STATUS[err.code] });
    throw err;
  }
}
