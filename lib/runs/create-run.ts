/**
 * Starting a run of a published API (POST /runs). Everything that makes a run accepted
 * happens in one transaction: the run row, the idempotency record, the pg-boss job and the
 * metering (one ETL run + one API request). Either all of it exists or none of it, and it
 * is committed (durable) before the 202 is sent.
 *
 * Idempotency (IETF draft "The Idempotency-Key HTTP Header Field"): scoped to
 * (consumer, API); the unique key of `idempotency_record` decides races, so concurrent
 * duplicates never create two runs. Same key + same body fingerprint: the same run is
 * returned and nothing new is started. Same key + different body: 422 naming the header.
 */
import "server-only";
import { db } from "@/lib/db";
import { utcTimestamp, withPgTransaction } from "@/lib/database/transaction";
import { env } from "@/lib/env";
import { ApiError, type TFieldError } from "@/lib/api/errors";
import type { TCaller } from "@/lib/api/resolve-caller";
import { enqueue } from "@/lib/jobs/boss";
import { addUsage, usageShard, usageUpsertSql } from "@/lib/metering/usage";
import { randomUUID } from "node:crypto";
import { DEFAULT_FORMAT, type TResultFormat } from "@/lib/formats/types";
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TValidRunRequest } from "@/lib/runs/validate-request";

/** Idempotency-Key header: 1..255 visible ASCII characters (draft recommends a UUID). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface TCreateRunResult {
  runId: string;
  /** True when an earlier run was returned for the same Idempotency-Key. */
  replayed: boolean;
  /** The new run's row as inserted (absent for a replay). */
  created?: { id: string; createdAt: Date; stepsTotal: number };
}

/** The format of each result: the request's choice or the kind's default. */
export function resolveFormats(flow: TFlowVersion, requested: Record<string, string> | undefined): Record<string, TResultFormat> {
  const out: Record<string, TResultFormat> = {};
  for (const r of flow.results) out[r.key] = (requested?.[r.key] as TResultFormat | undefined) ?? DEFAULT_FORMAT[r.kind];
  return out;
}

/**
 * Checks every `layer_id` input: the environment must be allowed to read the layer and
 * the layer's kind must fit the input's kind. A layer the environment may not read gets
 * the same answer as a missing one. Collects all faults; throws 422 if any.
 */
export async function checkLayerInputs(caller: TCaller, inputs: Record<string, unknown>): Promise<void> {
  const wanted = Object.entries(inputs).flatMap(([name, v]) =>
    v && typeof v === "object" && "layer_id" in v ? [{ name, layerId: String((v as { layer_id: unknown }).layer_id) }] : [],
  );
  if (wanted.length === 0) return;
  const readable = await db.environmentLayer.findMany({
    where: { environmentId: caller.environmentId, layerId: { in: wanted.map((w) => w.layerId) } },
    include: { layer: { select: { kind: true } } },
  });
  const kinds = new Map(readable.map((r) => [r.layerId, r.layer.kind]));
  const errors: TFieldError[] = [];
  for (const w of wanted) {
    const input = caller.flow.inputs.find((i) => i.name === w.name);
    const kind = kinds.get(w.layerId);
    const field = `/inputs/${w.name}/layer_id`;
    if (!kind) {
      errors.push({ field, code: "unknown_layer", message: `No layer "${w.layerId}" is readable in this environment.` });
    } else if (input && ((input.kind === "layer" && kind !== "features") || (input.kind === "table" && kind !== "table"))) {
      errors.push({
        field,
        code: "wrong_layer_kind",
        message: `Layer "${w.layerId}" is a ${kind === "features" ? "feature layer" : "table"}; input "${w.name}" needs a ${input.kind}.`,
      });
    }
  }
  if (errors.length) throw new ApiError("validation_failed", "Some inputs refer to layers that cannot be used.", { errors });
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; meta?: unknown; message?: string };
  return e?.code === "P2002" || e?.code === "23505" || /Unique constraint failed|23505/.test(e?.message ?? "");
}

/**
 * Creates (or, for a repeated Idempotency-Key, finds) the run. `request` must already be
 * validated against the flow (lib/runs/validate-request.ts).
 *
 * @throws ApiError 422 `validation_failed` for an unusable layer or a malformed key,
 *   422 `idempotency_key_reused` for the same key with a different body.
 */
export async function createRun(
  caller: TCaller,
  request: TValidRunRequest,
  idempotencyKey: string | null,
): Promise<TCreateRunResult> {
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw new ApiError("validation_failed", "The Idempotency-Key header is malformed.", {
      errors: [{ field: "/headers/Idempotency-Key", code: "invalid", message: "Use 1 to 255 visible ASCII characters, for example a UUID." }],
    });
  }
  await checkLayerInputs(caller, request.body.inputs);

  const scope = { consumerId: caller.consumerId, flowApiId: caller.flowApiId };
  const replay = async (): Promise<TCreateRunResult | null> => {
    if (idempotencyKey === null) return null;
    const record = await db.idempotencyRecord.findUnique({
      where: { consumerId_flowApiId_key: { ...scope, key: idempotencyKey } },
    });
    if (!record) return null;
    if (record.expiresAt <= new Date()) {
      await db.idempotencyRecord.deleteMany({ where: { ...scope, key: idempotencyKey, expiresAt: { lte: new Date() } } });
      return null;
    }
    if (record.fingerprint !== request.fingerprint) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was already used with a different request.", {
        errors: [{ field: "/headers/Idempotency-Key", code: "reused", message: "Send a new key for a different request." }],
      });
    }
    await addUsage(caller.workspaceId, { apiRequests: 1 });
    return { runId: record.runId, replayed: true };
  };

  const earlier = await replay();
  if (earlier) return earlier;

  const formats = resolveFormats(caller.flow, request.body.formats);
  try {
    // Raw SQL on the shared pool: this is the hottest path of the service (see lib/db.ts).
    const created = await withPgTransaction(async (client) => {
      const id = randomUUID();
      const createdAt = new Date();
      await enqueue(client, "run-execute", { runId: id });
      if (idempotencyKey !== null) {
        await client.query(
          `INSERT INTO "idempotency_record" ("consumerId", "flowApiId", "key", "fingerprint", "runId", "createdAt", "expiresAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            scope.consumerId,
            scope.flowApiId,
            idempotencyKey,
            request.fingerprint,
            id,
            utcTimestamp(createdAt),
            utcTimestamp(new Date(createdAt.getTime() + env().IDEMPOTENCY_RETENTION_HOURS * 3600_000)),
          ],
        );
      }
      // The run and its metering in one statement, last: the counter row's lock is then
      // held only for the commit itself (see lib/metering/usage.ts).
      await client.query(
        `WITH "new_run" AS (
           INSERT INTO "run" ("id", "mode", "workspaceId", "flowApiId", "flowVersionId", "releaseId", "environmentId", "consumerId",
             "request", "requestFingerprint", "formats", "stepsTotal", "createdAt")
           VALUES ($1, 'api', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
           RETURNING "workspaceId")
         ${usageUpsertSql('"workspaceId"', 13, '"new_run"')}`,
        [
          id,
          caller.workspaceId,
          caller.flowApiId,
          caller.flowVersionId,
          caller.releaseId,
          caller.environmentId,
          caller.consumerId,
          JSON.stringify({ inputs: request.body.inputs, parameters: request.parameters }),
          request.fingerprint,
          JSON.stringify(formats),
          caller.flow.steps.length,
          utcTimestamp(createdAt),
          usageShard(),
          1,
          0,
          1,
        ],
      );
      return { id, createdAt, stepsTotal: caller.flow.steps.length };
    });
    return { runId: created.id, replayed: false, created };
  } catch (err) {
    // A concurrent request with the same key won the race: answer as its replay.
    if (idempotencyKey !== null && isUniqueViolation(err)) {
      const winner = await replay();
      if (winner) return winner;
    }
    throw err;
  }
}
