/**
 * Zod issues as one error per faulty field, with an absolute path that `jsonPointer`
 * (lib/errors/field-error.ts) turns into an RFC 6901 pointer. Shared by flow validation
 * (lib/flows), the run request (lib/flows/run-request.ts) and parameter substitution
 * (lib/steps/step-schema.ts).
 */
import type { z } from "zod";
import { validationError } from "@/lib/errors/app-error";
import { jsonPointer, type TFieldError } from "@/lib/errors/field-error";

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const k of path) {
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, k as string)) return { found: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[k as string];
  }
  return { found: true, value: cur };
}

/**
 * Flattens zod issues into one error per faulty field, with an absolute path:
 * - `unrecognized_keys` → one `unknown_field` error per key, pointing at the key;
 * - a missing member → `required`;
 * - `invalid_union` → the issues of the branch the value was evidently meant for;
 * - `custom` issues carry their code in `params.code`;
 * - anything else keeps zod's code (`invalid_type`, `too_small`, `too_big`, `invalid_value`, ...).
 * `root` is the value that was parsed (used to tell missing members from wrong ones); `prefix`
 * is prepended to every path (the location of `root` in a larger document).
 */
export function flattenZodIssues(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: readonly PropertyKey[] = [],
): { path: PropertyKey[]; code: string; message: string }[] {
  const out: { path: PropertyKey[]; code: string; message: string }[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) out.push({ path: [...path, k], code: "unknown_field", message: `Unknown field "${k}"` });
    } else if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const here = valueAt(root, issue.path).value;
      // Prefer a branch whose issues are not about the value's own type.
      const branch =
        issue.errors.find((b) => b.length > 0 && !b.some((i) => i.path.length === 0 && i.code === "invalid_type")) ??
        (here !== null && typeof here === "object" && !Array.isArray(here) ? issue.errors[issue.errors.length - 1] : issue.errors[0]);
      out.push(...flattenZodIssues(branch, here, path));
    } else if ((issue.code === "invalid_type" || issue.code === "invalid_value") && !valueAt(root, issue.path).found) {
      out.push({ path, code: "required", message: "Required" });
    } else if (issue.code === "custom") {
      const code = (issue.params as { code?: string } | undefined)?.code ?? "invalid_value";
      out.push({ path, code, message: issue.message });
    } else {
      out.push({ path, code: issue.code, message: issue.message });
    }
  }
  return out;
}

/** Zod issues as field errors (`flattenZodIssues`), each field named by JSON Pointer. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], root: unknown, prefix: readonly PropertyKey[] = []): TFieldError[] {
  return flattenZodIssues(issues, root, prefix).map((e) => ({ field: jsonPointer(e.path), code: e.code, message: e.message }));
}

/** `value` parsed by `schema`, else AppError `validation_failed` (with `detail`) naming each faulty field by JSON Pointer. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, detail?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw validationError(fieldErrors(parsed.error.issues, value), detail);
}

/**
 * One input field's `value` parsed by `schema`; else AppError `validation_failed` whose detail is
 * `message` (default: the first problem zod reports), naming `field` (a JSON Pointer) with `code`.
 */
export function parseField<S extends z.ZodType>(schema: S, value: unknown, field: string, code: string, message?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const detail = message ?? parsed.error.issues[0]!.message;
  throw validationError([{ field, code, message: detail }], detail);
}
