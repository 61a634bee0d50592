/**
 * Reads a JSON request body with the boundary checks of design.md: `Content-Type` must be
 * `application/json` (415 otherwise), the body at most `MAX_BODY_BYTES` (413 above it,
 * counted while streaming, whatever Content-Length claims), and it must parse (400). Then
 * what Postgres could not store is refused here rather than as a 500 later
 * (lib/errors/unstorable.ts): arrays and objects nested deeper than `MAX_JSON_DEPTH` (400),
 * and a NUL character or an unpaired surrogate in any string or key (422 naming it by JSON
 * Pointer, e.g. `/inputs/places/rows/3/name`).
 */
import "server-only";
import { AppError, MAX_JSON_DEPTH, assertStorable } from "@/lib/errors";
import { env } from "@/lib/env";

export async function readJsonBody(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new AppError("unsupported_media_type", "Send the request body as JSON with Content-Type: application/json.");
  }
  const limit = env().MAX_BODY_BYTES;
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new AppError("payload_too_large", `The request body exceeds the limit of ${limit} bytes.`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new AppError("payload_too_large", `The request body exceeds the limit of ${limit} bytes.`);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw new AppError("bad_request", "The request body is empty; send a JSON object.");
  const deep = nestingDeeperThan(text, MAX_JSON_DEPTH);
  if (deep >= 0) {
    throw new AppError(
      "bad_request",
      `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at character ${deep}); at most ${MAX_JSON_DEPTH} are accepted.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError("bad_request", `The request body is not valid JSON: ${(err as Error).message}`);
  }
  assertStorable(body);
  return body;
}

/**
 * Offset in JSON `text` of the first `[` or `{` nested deeper than `max`, or -1. Strings are
 * skipped (with their escapes). Run before `JSON.parse`, so that a body of millions of nested
 * brackets is refused in one linear scan instead of being built first (which held the event loop
 * for seconds); the parsed value is checked again by `assertStorable`.
 */
function nestingDeeperThan(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}
