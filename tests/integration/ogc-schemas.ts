/**
 * Validates answers of the OGC door against the response schemas of OGC 18-062r2 (the 1.0
 * schemas in fixtures/ogcapi-processes-1.0, OpenAPI 3.0 schema objects in YAML that refer to
 * each other by file name), with Ajv: every file is added under its schemas.opengis.net URL, so
 * the relative `$ref`s resolve as published. JSON Schema draft 04 (ajv-draft-04), the dialect
 * OpenAPI 3.0 schema objects follow (schema.yaml has draft 04's boolean `exclusiveMinimum`);
 * OpenAPI-only keywords (`nullable`, `example`) are ignored (`strict: false`); `format` is
 * checked (ajv-formats).
 */
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv-draft-04";
import type { ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { expect } from "vitest";

const DIR = path.join(import.meta.dirname, "fixtures", "ogcapi-processes-1.0");
const BASE = "https://schemas.opengis.net/ogcapi/processes/part1/1.0/openapi/schemas/";

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(name: string): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    // RFC 4648 base64 strictly: 1.0's inputValueNoObject is a oneOf of `string` and a string of
    // format `byte`, so a CSV text must not pass as base64 (a base64 value stays ambiguous there:
    // the tests take binary results by reference).
    ajv.addFormat("byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
    for (const file of fs.readdirSync(DIR).filter((f) => f.endsWith(".yaml"))) ajv.addSchema(parse(fs.readFileSync(path.join(DIR, file), "utf8")), BASE + file);
  }
  let v = compiled.get(name);
  if (!v) {
    v = ajv.getSchema(`${BASE}${name}.yaml`)!;
    compiled.set(name, v);
  }
  return v;
}

/** Asserts that `body` is valid against the 18-062r2 schema `name` (e.g. "statusInfo", "results"). */
export function expectOgcSchema(name: string, body: unknown): void {
  const validate = validator(name);
  const ok = validate(body);
  expect(ok ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`), `${name}.yaml`).toEqual([]);
}
