/**
 * Starting a run, for any caller scope (lib/runs/scope.ts): a key's consumer calling a
 * published API (HTTP POST /runs, an MCP tool call) or a designer's Try it. Everything that
 * makes a run accepted happens in one transaction: the run row (`queued`), the idempotency
 * record, the pg-boss job and the metering: one ETL run, plus one API request for a key
 * (a designer's run is never an API request). Either all of it exists or none of it, and
 * it is committed (durable) before the caller is answered.
 *
 * Idempotency (IETF draft "The Idempotency-Key HTTP Header Field"): scoped to
 * (consumer, API); the unique key of `idempotency_record` decides races, so concurrent
 * duplicates never create two runs. Same key + same body fingerprint: the same run is
 * returned and nothing new is started. Same key + different body: 422 naming the header.
 */
import "server-only";
import { db } from "@/lib/db";
import { utcTimestamp, withPgTransaction } from "@/lib/database/transaction";
import { isUniqueViolation } from "@/lib/database/unique-violation";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { enqueue } from "@/lib/jobs/boss";
import { addUsage, usageShard, usageUpsertSql } from "@/lib/metering/usage";
import type { TKeyScope, TPreviewTarget, TRunScope, TRunTarget } from "@/lib/runs/scope";
import { randomUUID } from "node:crypto";
import { DEFAULT_FORMAT } from "@/lib/formats/registry";
import type { TCheckedRunRequest } from "@/lib/runs/check-run-request";
import type { TStoredSubscriber } from "@/lib/runs/run-webhooks";
import type { TSubscriber } from "@/lib/flows/subscriber";
import { isHrefValue } from "@/lib/flows/run-request";

/** Idempotency-Key header: 1..255 visible ASCII characters (draft recommends a UUID). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What the door that starts a run keeps with it for its later answers (the HTTP door's: nothing but the defaults). */
export interface TRunDoor {
  /** How the callback bodies to the request's `subscriber` are shaped. */
  callbacks: Omit<TStoredSubscriber, keyof TSubscriber>;
  /** How an OGC execute request asked for its results, stored as given: its door owns the shape (lib/ogc/execute-request.ts `TOgcAnswer`). */
  ogcAnswer?: object;
}

export interface TCreateRunResult {
  runId: string;
  /** True when an earlier run was returned for the same Idempotency-Key. */
  replayed: boolean;
  /** The new run's row as inserted (absent for a replay). */
  created?: { id: string; createdAt: Date; stepsTotal: number };
}

/**
 * Creates (or, for a repeated Idempotency-Key, finds) the run of `target` for `scope`.
 * `request` must have been checked for this scope and target (lib/runs/check-run-request.ts:
 * its form, its layers, its URLs and callback URIs).
 * Idempotency keys are scoped to (consumer, API) and exist for key callers only. A preview
 * target (an unsaved flow document, lib/runs/preview-run.ts) is for a designer only and is
 * stored with the run as its `flowDocument`.
 *
 * The request's `subscriber` (callback URIs) is checked against the environment's outbound
 * rules and stored with the run, with `door.callbacks` (how the calling door shapes the callback
 * bodies; the HTTP door's run document by default); `door.ogcAnswer` is stored as the run's
 * `ogcAnswer`.
 *
 * @throws AppError `validation_failed` for a malformed key,
 *   `idempotency_key_reused` for the same key with a different body.
 */
export async function createRun(
  scope: TRunScope,
  target: TRunTarget | TPreviewTarget,
  request: TCheckedRunRequest,
  idempotencyKey: string | null = null,
  door: TRunDoor = { callbacks: { door: "http" } },
): Promise<TCreateRunResult> {
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw new AppError("validation_failed", "The Idempotency-Key header is malformed.", {
      errors: [{ field: "/headers/Idempotency-Key", code: "invalid", message: "Use 1 to 255 visible ASCII characters, for example a UUID." }],
    });
  }
  if (scope.kind === "designer" && scope.workspaceId !== target.workspaceId) {
    throw new AppError("not_found", "No such API in your workspace.");
  }
  if ("preview" in target && scope.kind !== "designer") throw new AppError("forbidden", "Previews of a flow document are for designers only.");
  if (idempotencyKey !== null && scope.kind !== "key") {
    throw new AppError("bad_request", "Idempotency keys are for API key callers only.");
  }
  const subscriber = request.body.subscriber;
  if (subscriber && scope.kind !== "key") throw new AppError("bad_request", "Callbacks (subscriber) are for API key callers only.");

  const replay = async (): Promise<TCreateRunResult | null> => {
    if (idempotencyKey === null || scope.kind !== "key") return null;
    const idem = { consumerId: scope.consumerId, flowApiId: scope.flowApiId };
    const record = await db.idempotencyRecord.findUnique({
      where: { consumerId_flowApiId_key: { ...idem, key: idempotencyKey } },
    });
    if (!record) return null;
    if (record.expiresAt <= new Date()) {
      await db.idempotencyRecord.deleteMany({ where: { ...idem, key: idempotencyKey, expiresAt: { lte: new Date() } } });
      return null;
    }
    if (record.fingerprint !== request.fingerprint) {
      throw new AppError("idempotency_key_reused", "This Idempotency-Key was already used with a different request.", {
        errors: [{ field: "/headers/Idempotency-Key", code: "reused", message: "Send a new key for a different request." }],
      });
    }
    await addUsage(target.workspaceId, { apiRequests: 1 });
    return { runId: record.runId, replayed: true };
  };

  const earlier = await replay();
  if (earlier) return earlier;

  // The format of each result: the request's choice or the kind's default.
  const formats = Object.fromEntries(target.flow.results.map((r) => [r.key, request.body.formats?.[r.key] ?? DEFAULT_FORMAT[r.kind]]));
  // Progress counts each href input's fetch before the steps (lib/runs/execute-run.ts).
  const stepsTotal = target.flow.steps.length + Object.values(request.body.inputs).filter(isHrefValue).length;
  const key: TKeyScope | null = scope.kind === "key" ? scope : null;
  try {
    // Raw SQL on the shared pool: this is the hottest path of the service (see lib/db.ts).
    const created = await withPgTransaction(async (client) => {
      const id = randomUUID();
      const createdAt = new Date();
      await enqueue(client, "run-execute", { runId: id });
      if (idempotencyKey !== null && key) {
        await client.query(
          `INSERT INTO "idempotency_record" ("consumerId", "flowApiId", "key", "fingerprint", "runId", "createdAt", "expiresAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            key.consumerId,
            key.flowApiId,
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
             "userId", "request", "requestFingerprint", "formats", "stepsTotal", "createdAt", "flowDocument", "subscriber", "ogcAnswer")
           VALUES ($1, $2::"RunMode", $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $17::jsonb, $18::jsonb, $19::jsonb)
           RETURNING "workspaceId")
         ${usageUpsertSql({ workspace: '"workspaceId"', shard: "$15::int", etlRuns: "1", apiRequests: "$16", from: '"new_run"' })}`,
        [
          id,
          key ? "api" : "try",
          target.workspaceId,
          target.flowApiId,
          target.flowVersionId,
          target.releaseId,
          key?.environmentId ?? null,
          key?.consumerId ?? null,
          scope.kind === "designer" ? scope.userId : null,
          JSON.stringify({ inputs: request.body.inputs, parameters: request.parameters }),
          request.fingerprint,
          JSON.stringify(formats),
          stepsTotal,
          utcTimestamp(createdAt),
          usageShard(),
          key ? 1 : 0,
          "preview" in target ? JSON.stringify(target.flow) : null,
          subscriber ? JSON.stringify({ ...subscriber, ...door.callbacks } satisfies TStoredSubscriber) : null,
          door.ogcAnswer ? JSON.stringify(door.ogcAnswer) : null,
        ],
      );
      return { id, createdAt, stepsTotal };
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
