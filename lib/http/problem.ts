/**
 * RFC 9457 problem details for the HTTP front door: `application/problem+json` with
 * `type`, `title`, `status`, `detail`, `instance`, our `code`, and `errors` (each faulty
 * field by JSON Pointer) on 422. `type` is a stable URI per error code
 * (`https://flow-api.dev/problems/<code with dashes>`), documented in the README.
 *
 * The status of each code is `ERROR_STATUS` (lib/errors/app-error.ts); the OpenAPI document
 * lists the codes as structured data (`x-error-codes`). What differs by door:
 * - `key` (the public API): a 401 titled "Missing or invalid API key" challenges with
 *   `WWW-Authenticate: ApiKey header="X-Api-Key"`;
 * - `mcp`: the same titles and no challenge here: the MCP door adds its own OAuth Bearer
 *   challenge naming the endpoint's protected resource metadata (lib/mcp/handle-mcp-request.ts);
 * - `session` (the design tool and console): a 401 is "Sign-in required", a 403 "Not allowed",
 *   no challenge.
 */
import { z } from "zod";
import { ERROR_CODES, ERROR_CODE_LIST, ERROR_STATUS, type TErrorCode } from "@/lib/errors/app-error";
import { ZFieldError, type TFieldError } from "@/lib/errors/field-error";

export const PROBLEM_TYPE_BASE = "https://flow-api.dev/problems/";

/** The `type` URI of a code. */
export function problemType(code: TErrorCode): string {
  return PROBLEM_TYPE_BASE + code.replace(/_/g, "-");
}

export const ZProblem = z
  .object({
    type: z.url().describe(`${PROBLEM_TYPE_BASE}<code with dashes>`),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string().optional().describe("Path of the request."),
    code: z.enum(ERROR_CODE_LIST),
    errors: z.array(ZFieldError).optional().describe("422 only: one entry per faulty field."),
  })
  .describe("RFC 9457 problem details.");

export type TProblem = z.infer<typeof ZProblem>;

export type TProblemDoor = "key" | "mcp" | "session";

const SESSION_TITLES: Partial<Record<TErrorCode, string>> = { unauthorized: "Sign-in required", forbidden: "Not allowed" };

/** Headers some codes always carry (RFC 9110 / RFC 7235). */
function headersFor(code: TErrorCode, retryAfterSeconds: number | undefined, door: TProblemDoor): Record<string, string> {
  const h: Record<string, string> = {};
  if (code === "unauthorized" && door === "key") h["www-authenticate"] = 'ApiKey header="X-Api-Key"';
  if (code === "unsupported_media_type") h["accept-post"] = "application/json";
  if (retryAfterSeconds !== undefined) h["retry-after"] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return h;
}

/**
 * Builds a problem response for `code`, as `door` (default `key`) answers it. `kind` replaces
 * the problem type and title where a standard names its own (the OGC door's exceptions).
 */
export function problem(
  code: TErrorCode,
  detail: string,
  opts: {
    instance?: string;
    errors?: TFieldError[];
    retryAfterSeconds?: number;
    headers?: Record<string, string>;
    door?: TProblemDoor;
    kind?: { type: string; title: string };
  } = {},
): Response {
  const status = ERROR_STATUS[code];
  const door = opts.door ?? "key";
  const body: TProblem = {
    type: opts.kind?.type ?? problemType(code),
    title: opts.kind?.title ?? ((door === "session" && SESSION_TITLES[code]) || ERROR_CODES[code]),
    status,
    detail,
    ...(opts.instance ? { instance: opts.instance } : {}),
    code,
    ...(opts.errors ? { errors: opts.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...headersFor(code, opts.retryAfterSeconds, door), ...opts.headers },
  });
}
