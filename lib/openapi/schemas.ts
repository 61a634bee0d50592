/**
 * `components.schemas` of the OpenAPI document, derived from the zod schemas of the
 * responses (lib/runs/run-document.ts, lib/http/problem.ts, lib/errors/field-error.ts) with
 * `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect), then narrowed to one API:
 * `api` is that API's slug and result keys are its flow's.
 */
import { z } from "zod";
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import { ZFieldError } from "@/lib/errors/field-error";
import { ZProblem } from "@/lib/http/problem";
import { ZResultEntry, ZRunDocument, ZRunError, ZRunList } from "@/lib/runs/run-document";
import { errorCodeTable } from "@/lib/openapi/problems";
import { requestSchema } from "@/lib/openapi/request-schema";
import type { TJsonSchema } from "@/lib/openapi/types";

const SCHEMAS = { Run: ZRunDocument, RunResult: ZResultEntry, RunError: ZRunError, RunList: ZRunList, Problem: ZProblem, FieldError: ZFieldError };

/** The response schemas as JSON Schema, once per process (they do not depend on the flow). */
let cached: Record<string, TJsonSchema> | null = null;

function responseSchemas(): Record<string, TJsonSchema> {
  if (cached) return cached;
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    // Keep the document readable: formats speak for themselves without zod's regexes, and
    // integers need no ±2^53 bounds.
    override: ({ jsonSchema: s }) => {
      if (typeof s.format === "string") delete s.pattern;
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    },
  }) as { schemas: Record<string, TJsonSchema> };
  cached = Object.fromEntries(
    Object.entries(out.schemas).map(([id, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema;
      return [id, rest];
    }),
  );
  return cached;
}

type TObjectSchema = TJsonSchema & { properties: Record<string, TJsonSchema> };

/** Every schema of the document of `api` serving `flow` (`readable`: the layers its environment may read). */
export function buildSchemas(flow: TFlowVersion, api: string, readable: readonly TReadableLayer[] = []): Record<string, TJsonSchema> {
  const base = structuredClone(responseSchemas());
  const run = base.Run as TObjectSchema;
  run.properties.api = { type: "string", const: api };
  const result = base.RunResult as TObjectSchema;
  result.properties.key = { type: "string", enum: flow.results.map((r) => r.key) };
  const problem = base.Problem as TObjectSchema;
  problem.properties.code = {
    ...problem.properties.code,
    description: "Stable error code; `x-error-codes` lists each with its status and title.",
    "x-error-codes": errorCodeTable(),
  };
  return { RunRequest: requestSchema(flow, readable), ...base };
}
