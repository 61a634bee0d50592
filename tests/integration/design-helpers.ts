/**
 * Helpers for the design-tool domain tests (tests/integration/design-*.test.ts): a fresh
 * workspace on its own plan in the demo organization, so plan limits and lists start empty,
 * and small valid flow documents.
 */
import { expect } from "vitest";
import { AppError } from "@/lib/errors";
import { importFailureError } from "@/lib/layers/import-failure";
import { waitForLayerImport } from "@/lib/layers/layer-imports";
import { stageLayerUpload, type TStageUploadInput } from "@/lib/layers/stage-upload";
import { sql } from "./helpers";
import { demoIds, suffix } from "./contract-helpers";

/** A new workspace of the demo organization on a new plan allowing `maxFlowApis` APIs. */
export async function designWorkspace(maxFlowApis = 10): Promise<{ organizationId: string; workspaceId: string; planName: string }> {
  const { organizationId } = await demoIds();
  const planId = `design-${suffix()}`;
  const planName = `Plan ${planId}`;
  await sql().query(`INSERT INTO plan (id, name, "maxFlowApis", "aiAccess", "rateLimitPerMinute") VALUES ($1, $2, $3, false, 600)`, [
    planId,
    planName,
    maxFlowApis,
  ]);
  const { rows } = await sql().query(
    `INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, $2, $2, $3) RETURNING id`,
    [organizationId, `ws-${suffix()}`, planId],
  );
  return { organizationId, workspaceId: rows[0].id, planName };
}

/** Version 1 of the test flow: the caller's area returned as layer `out`. */
export const AREA_ECHO_V1 = {
  description: "Echoes an area",
  inputs: [{ name: "area", kind: "area" }],
  parameters: [],
  steps: [],
  results: [{ key: "out", kind: "layer", from: "area" }],
};

/** Version 2: adds the table result `summary` (one row: count) and a parameter. */
export const AREA_ECHO_V2 = {
  description: "Echoes an area, with a summary",
  inputs: [{ name: "area", kind: "area" }],
  parameters: [{ name: "label", type: "string", default: "x" }],
  steps: [{ id: "counted", type: "aggregate", source: "area", aggregations: [{ op: "count", as: "n" }] }],
  results: [
    { key: "out", kind: "layer", from: "area" },
    { key: "summary", kind: "table", from: "counted" },
  ],
};

export async function expectAppError(p: Promise<unknown> | (() => unknown), code: string): Promise<AppError> {
  const err = await Promise.resolve()
    .then(typeof p === "function" ? p : () => p)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

/** `bytes` as a request body stream of `pieces` chunks. */
export function streamOf(bytes: Uint8Array, pieces = 3): ReadableStream<Uint8Array> {
  const size = Math.max(1, Math.ceil(bytes.byteLength / pieces));
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.byteLength) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** Uploads `bytes` and waits for the worker's import: its result, or its problem thrown as the AppError the upload route answers with (importFailureError). */
export async function importLayer(ws: { workspaceId: string }, input: TStageUploadInput & { bytes: Uint8Array }) {
  const { bytes, ...rest } = input;
  const staged = await stageLayerUpload(ws, rest, streamOf(bytes), null);
  const doc = await waitForLayerImport(ws, staged.import_id, 60_000);
  if (doc.state === "failed") throw importFailureError(doc.error!);
  if (doc.state !== "completed") throw new Error(`import ${doc.import_id} still ${doc.state}`);
  return doc.result!;
}
