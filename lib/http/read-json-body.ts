/**
 * Reads a JSON request body with the boundary checks of design.md: `Content-Type` must be
 * `application/json` (415 otherwise), the body at most `MAX_BODY_BYTES` (413 above it,
 * counted while streaming, whatever Content-Length claims), and it must parse (400).
 */
import "server-only";
import { AppError } from "@/lib/errors";
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
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError("bad_request", `The request body is not valid JSON: ${(err as Error).message}`);
  }
}
