/**
 * One run of an environment for the console: what the list shows plus its request as
 * stored (the validated body; caller data is removed once the run is final, so a final
 * run's request shows only what remains), its formats and results (key, kind, format,
 * counts, file size). Errors: `not_found` (not a published call of this environment).
 */
import "server-only";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";
import { AppError } from "@/lib/errors";
import { environmentRun, ENVIRONMENT_RUN_SELECT } from "@/lib/runs/list-environment-runs";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function getEnvironmentRun(scope: TEnvironmentRef, runId: string) {
  const r = isUuid(runId)
    ? await db.run.findFirst({
        where: { id: runId, environmentId: scope.environmentId, mode: "api" },
        select: {
          ...ENVIRONMENT_RUN_SELECT,
          request: true,
          formats: true,
          results: true,
          files: { select: { key: true, format: true, sizeBytes: true } },
        },
      })
    : null;
  if (!r) throw new AppError("not_found", "No such run in this environment.");
  return {
    ...environmentRun(r),
    request: r.request,
    formats: r.formats,
    results: r.results.map(({ key, kind, format, featureCount, rowCount }) => {
      const file = r.files.find((f) => f.key === key && f.format === format);
      return { key, kind, format, featureCount, rowCount, sizeBytes: file ? Number(file.sizeBytes) : null };
    }),
  };
}
