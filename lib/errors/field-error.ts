/**
 * One faulty field of a request, named by a JSON Pointer (RFC 6901) into that request:
 * `/inputs/area/area/coordinates/0`, `/parameters/top`, `/headers/Idempotency-Key`,
 * `/query/format`. The same shape serves every front door: HTTP puts it in a problem's
 * `errors`, MCP names the argument in a tool error, the browser shows it next to the field.
 * The domain names the logical field (`/format`); each door writes its own pointer (the
 * public API `/query/format`, MCP the argument).
 */
import { z } from "zod";

export const ZFieldError = z.object({
  field: z
    .string()
    .describe("JSON Pointer (RFC 6901) into the request, e.g. /parameters/top, /inputs/area/area/coordinates/0, /headers/Idempotency-Key, /query/format."),
  code: z.string().describe("Stable machine-readable reason, e.g. too_small, unknown_layer."),
  message: z.string().describe("What is wrong and how to fix it, for people."),
});

export type TFieldError = z.infer<typeof ZFieldError>;

/** JSON Pointer (RFC 6901 section 3) from a path of keys and indexes: `~` -> `~0`, `/` -> `~1`. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}
