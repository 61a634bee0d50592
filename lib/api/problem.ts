/**
 * RFC 9457 problem details: `application/problem+json` with `type`, `title`, `status`,
 * `detail`, `instance`, and `errors` (each faulty field by JSON Pointer) on 422.
 * `type` is a stable URI per error code, documented in the README.
 */
import { ERROR_STATUS, ERROR_TITLE, type TErrorCode, type TFieldError } from "@/lib/api/errors";

export const PROBLEM_TYPE_BASE = "https://flow-api.dev/problems/";

export interface TProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: TErrorCode;
  errors?: TFieldError[];
}

/** Builds a problem response for `code`. */
export function problem(
  code: TErrorCode,
  detail: string,
  opts: { instance?: string; errors?: TFieldError[]; headers?: Record<string, string> } = {},
): Response {
  const status = ERROR_STATUS[code];
  const body: TProblem = {
    type: PROBLEM_TYPE_BASE + code.replace(/_/g, "-"),
    title: ERROR_TITLE[code],
    status,
    detail,
    ...(opts.instance ? { instance: opts.instance } : {}),
    code,
    ...(opts.errors ? { errors: opts.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...opts.headers },
  });
}
