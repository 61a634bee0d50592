/**
 * A result file of a completed run. The format is the run's requested one unless
 * `?format=` asks for the other format of the result's kind. 409 when the run has not
 * completed; 404 for an unknown key; 422 for a format that does not fit the kind.
 */
import "server-only";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/api/errors";
import type { TCaller } from "@/lib/api/resolve-caller";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { FORMAT_INFO, LAYER_FORMATS, TABLE_FORMATS, type TResultFormat } from "@/lib/formats/types";

export async function getResultFile(caller: TCaller, runId: string, key: string, format: string | null) {
  const run = await getRunOrThrow(caller, runId);
  if (run.state !== "completed") {
    throw new ApiError("conflict", `Run ${runId} is ${run.state}; results exist only for completed runs.`);
  }
  const result = run.results.find((r) => r.key === key);
  if (!result) throw new ApiError("not_found", `Run ${runId} has no result "${key}".`);
  const allowed: readonly string[] = result.kind === "layer" ? LAYER_FORMATS : TABLE_FORMATS;
  const chosen = format ?? result.format;
  if (!allowed.includes(chosen)) {
    throw new ApiError("validation_failed", `Format "${chosen}" does not fit a ${result.kind} result.`, {
      errors: [{ field: "/query/format", code: "invalid_format", message: `Use one of: ${allowed.join(", ")}.` }],
    });
  }
  const file = await db.resultFile.findUnique({ where: { runId_key_format: { runId: run.id, key, format: chosen } } });
  if (!file) throw new ApiError("not_found", `The ${chosen} file of result "${key}" is no longer available.`);
  const info = FORMAT_INFO[chosen as TResultFormat];
  return { file, filename: `${key}.${info.extension}`, mediaType: info.mediaType };
}
