/**
 * The HTTP answer for a result file download, shared by the public API and the design tool:
 *
 * - `ETag` (the file's SHA-256) and `If-None-Match` -> 304 (RFC 9110 §13.1.2);
 * - `Accept-Ranges: bytes`; a single `Range: bytes=a-b`, `a-` or `-n` -> 206 with
 *   `Content-Range` (RFC 9110 §14), read from the blob store as that byte range only; an
 *   unsatisfiable range -> 416 with `Content-Range: bytes * /<size>`; several ranges, or an
 *   `If-Range` that does not match the ETag -> the whole file (200), as the RFC allows;
 * - where the store is S3 and `S3_PRESIGN_DOWNLOADS` is on: 307 to a short-lived presigned URL
 *   of the object (the bucket then serves the bytes, ranges included);
 * - otherwise the bytes streamed from the store, never held whole.
 */
import { ifNoneMatchMatches } from "@/lib/http/conditional";

export interface TDownloadable {
  file: { sha256: string; sizeBytes: number };
  filename: string;
  mediaType: string;
  stream: (range?: { start: number; end: number }) => ReadableStream<Uint8Array>;
  presignedUrl: () => Promise<string | null>;
}

/** Parses one `bytes=` range against `size`: `{start, end}` (end exclusive), "unsatisfiable", or null (ignore the header). */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null; // several ranges or another unit: serve the whole file
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || last < start) return "unsatisfiable";
  return { start, end: last + 1 };
}

export async function fileResponse(req: Request, d: TDownloadable, cacheControl: string): Promise<Response> {
  const etag = `"${d.file.sha256}"`;
  const headers: Record<string, string> = {
    "content-type": d.mediaType,
    "content-disposition": `attachment; filename="${d.filename.replace(/["\\\r\n]/g, "_")}"`,
    etag,
    "cache-control": cacheControl,
    "accept-ranges": "bytes",
  };
  if (ifNoneMatchMatches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  const presigned = await d.presignedUrl();
  if (presigned) return new Response(null, { status: 307, headers: { location: presigned, "cache-control": "no-store" } });
  const size = d.file.sizeBytes;
  const ifRange = req.headers.get("if-range");
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.get("range"), size);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  if (range) {
    return new Response(d.stream(range), {
      status: 206,
      headers: { ...headers, "content-range": `bytes ${range.start}-${range.end - 1}/${size}`, "content-length": String(range.end - range.start) },
    });
  }
  return new Response(d.stream(), { status: 200, headers: { ...headers, "content-length": String(size) } });
}
