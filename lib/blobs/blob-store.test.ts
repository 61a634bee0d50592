// The blob store contract, one test list run against both stores: the filesystem in a temp
// folder and S3 against s3rver started in-process on a free loopback port. Expected bytes and
// hashes come from the test's own data and node:crypto, never from the store.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobNotFoundError, InvalidBlobKeyError, assertBlobKey, attachmentDisposition, blobAsyncBuffer, type TBlobStore } from "@/lib/blobs/blob-store";
import { createFsBlobStore } from "@/lib/blobs/fs-store";
import { blobStoreFor } from "@/lib/blobs/index";
import { createS3BlobStore } from "@/lib/blobs/s3-store";
import { startS3Server, type TS3TestServer } from "@/lib/blobs/s3-test-server";
import { ZEnv } from "@/lib/env";

const MiB = 1024 * 1024;
/** S3's smallest part: a 12.5 MiB body goes up as three parts. */
const PART_BYTES = 5 * MiB;

let tmp: string;
let s3: TS3TestServer;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "blob-store-test-"));
  s3 = await startS3Server({ bucket: "blobs-test" });
});

afterAll(async () => {
  await s3?.stop();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

/** The bytes in chunks of uneven sizes (so no chunk boundary lines up with a part or a read). */
async function* chunksOf(bytes: Uint8Array, sizes = [700_001, 65_536, 1, 1_300_000]): AsyncGenerator<Uint8Array> {
  for (let at = 0, i = 0; at < bytes.byteLength; i++) {
    const n = sizes[i % sizes.length];
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

async function keys(store: TBlobStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of store.list(prefix)) out.push(o.key);
  return out.sort();
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);

type TCase = { name: "fs" | "s3"; make: () => TBlobStore };
const cases: TCase[] = [
  { name: "fs", make: () => createFsBlobStore({ root: path.join(tmp, "fs-root") }) },
  {
    name: "s3",
    make: () =>
      createS3BlobStore({
        bucket: s3.bucket,
        prefix: "install-1",
        endpoint: s3.endpoint,
        region: s3.region,
        credentials: s3.credentials,
        partSizeBytes: PART_BYTES,
      }),
  },
];

describe.each(cases)("$name blob store", ({ name, make }) => {
  let store: TBlobStore;
  // 12.5 MiB: three S3 parts, thirteen 1 MiB reads of the filesystem's stream.
  const big = randomBytes(12 * MiB + MiB / 2);

  beforeAll(async () => {
    store = make();
    expect(store.kind).toBe(name);
    const info = await store.put("big/data.bin", chunksOf(big), { contentType: "application/octet-stream" });
    expect(info).toEqual({ key: "big/data.bin", sizeBytes: big.byteLength, sha256: sha256(big) });
  });

  it("gives back the bytes a multi-chunk put stored, whole and streamed", async () => {
    expect(await store.size("big/data.bin")).toBe(big.byteLength);
    const streamed = await collect(store.stream("big/data.bin"));
    expect(streamed.equals(big)).toBe(true);
    expect(sha256(streamed)).toBe(createHash("sha256").update(big).digest("hex"));
    expect(Buffer.from(await store.getRange("big/data.bin", 0, big.byteLength)).equals(big)).toBe(true);
  });

  it("is done with a chunk when it asks for the next: a body that then reuses the chunk's bytes is stored as it was", async () => {
    // one buffer for every chunk, overwritten as soon as the next chunk is asked for (lib/blobs/byte-channel.ts)
    const buffer = Buffer.alloc(MiB + 17);
    async function* reused(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < big.byteLength; at += buffer.byteLength) {
        const n = Math.min(buffer.byteLength, big.byteLength - at);
        big.copy(buffer, 0, at, at + n);
        yield buffer.subarray(0, n);
        buffer.fill(0xee);
      }
    }
    const info = await store.put("reused/data.bin", reused());
    expect(info).toEqual({ key: "reused/data.bin", sizeBytes: big.byteLength, sha256: sha256(big) });
    expect((await collect(store.stream("reused/data.bin"))).equals(big)).toBe(true);
  });

  it("reads ranges at the start, in the middle, at the end and past the end", async () => {
    const n = big.byteLength;
    const cases: [number, number, Uint8Array][] = [
      [0, 1, big.subarray(0, 1)],
      [0, 10, big.subarray(0, 10)],
      [PART_BYTES - 3, PART_BYTES + 3, big.subarray(PART_BYTES - 3, PART_BYTES + 3)], // across a part boundary
      [1_234_567, 3_456_789, big.subarray(1_234_567, 3_456_789)],
      [n - 10, n, big.subarray(n - 10)],
      [n - 5, n + 100, big.subarray(n - 5)], // end clamped
      [n, n + 10, new Uint8Array(0)], // starts at the end
      [n + 1, n + 10, new Uint8Array(0)], // starts past the end
      [7, 7, new Uint8Array(0)], // empty
    ];
    for (const [start, end, expected] of cases) {
      const got = await store.getRange("big/data.bin", start, end);
      expect(Buffer.from(got).equals(Buffer.from(expected)), `[${start}, ${end})`).toBe(true);
    }
  });

  it("streams a range, lazily", async () => {
    const n = big.byteLength;
    expect((await collect(store.stream("big/data.bin", { start: 3 * MiB + 5, end: 9 * MiB }))).equals(big.subarray(3 * MiB + 5, 9 * MiB))).toBe(true);
    expect((await collect(store.stream("big/data.bin", { start: 0, end: 1 }))).equals(big.subarray(0, 1))).toBe(true);
    expect((await collect(store.stream("big/data.bin", { start: n - 3, end: n + 3 }))).equals(big.subarray(n - 3))).toBe(true);
    expect((await collect(store.stream("big/data.bin", { start: n + 3, end: n + 9 }))).byteLength).toBe(0);
    // Stopping early is allowed (a client that hangs up); the first chunk is the object's start.
    for await (const chunk of store.stream("big/data.bin")) {
      expect(Buffer.from(chunk).equals(big.subarray(0, chunk.byteLength))).toBe(true);
      break;
    }
  });

  it("keeps an empty object", async () => {
    const info = await store.put("empty/zero", chunksOf(new Uint8Array(0)));
    expect(info).toEqual({ key: "empty/zero", sizeBytes: 0, sha256: sha256(new Uint8Array(0)) });
    expect(await store.size("empty/zero")).toBe(0);
    // Not [0, 10): s3rver answers a ranged GET of an empty object with a body that promises a
    // byte and stalls until its keep-alive timeout (5 s); S3 answers 416, which getRange reads as empty.
    expect((await store.getRange("empty/zero", 0, 0)).byteLength).toBe(0);
    expect((await collect(store.stream("empty/zero"))).byteLength).toBe(0);
  });

  it("answers null, BlobNotFoundError or nothing for a missing object", async () => {
    expect(await store.size("missing/x")).toBeNull();
    await expect(store.getRange("missing/x", 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.getRange("missing/x", 0, 0)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(collect(store.stream("missing/x"))).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(blobAsyncBuffer(store, "missing/x")).rejects.toBeInstanceOf(BlobNotFoundError);
    // A prefix of existing keys is no object either.
    expect(await store.size("big")).toBeNull();
    await expect(store.getRange("big", 0, 1)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it("replaces an object as a whole, and deletes idempotently", async () => {
    await store.put("del/one", once(utf8("first version")));
    await store.put("del/one", once(utf8("second")));
    expect(Buffer.from(await store.getRange("del/one", 0, 100)).toString()).toBe("second");
    await store.delete("del/one");
    expect(await store.size("del/one")).toBeNull();
    await store.delete("del/one");
    await store.delete("never/was");
    expect(await store.size("del/one")).toBeNull();
  });

  it("lists and deletes by plain string prefix", async () => {
    for (const key of ["pre/a/1", "pre/a/2", "pre/b/1", "prefix-other", "pre-x/1"]) await store.put(key, once(utf8(key)));
    expect(await keys(store, "pre/")).toEqual(["pre/a/1", "pre/a/2", "pre/b/1"]);
    expect(await keys(store, "pre")).toEqual(["pre-x/1", "pre/a/1", "pre/a/2", "pre/b/1", "prefix-other"]);
    expect(await keys(store, "pre/a")).toEqual(["pre/a/1", "pre/a/2"]);
    const listed = [];
    for await (const o of store.list("pre/b/")) listed.push(o);
    expect(listed).toHaveLength(1);
    expect(listed[0].sizeBytes).toBe(utf8("pre/b/1").byteLength);
    expect(Math.abs(listed[0].lastModified.getTime() - Date.now())).toBeLessThan(10 * 60_000);

    expect(await store.deletePrefix("pre/a/")).toBe(2);
    expect(await keys(store, "pre")).toEqual(["pre-x/1", "pre/b/1", "prefix-other"]);
    expect(await store.deletePrefix("pre/a/")).toBe(0);
    expect(await store.deletePrefix("pre")).toBe(3);
    expect(await keys(store, "pre")).toEqual([]);
    expect(await keys(store, "")).toEqual(expect.arrayContaining(["big/data.bin"]));
  });

  it("leaves no object when the body throws midway, nor replaces the old one", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      // Past one S3 part, so the multipart path (and its abort) is the one taken.
      yield big.subarray(0, PART_BYTES + MiB);
      yield big.subarray(PART_BYTES + MiB, 2 * PART_BYTES + MiB);
      throw new Error("source failed");
    }
    await expect(store.put("fail/new", failing())).rejects.toThrow("source failed");
    expect(await store.size("fail/new")).toBeNull();
    expect(await keys(store, "fail/")).toEqual([]);

    await store.put("fail/old", once(utf8("kept")));
    await expect(store.put("fail/old", failing())).rejects.toThrow("source failed");
    expect(Buffer.from(await store.getRange("fail/old", 0, 100)).toString()).toBe("kept");
    await store.delete("fail/old");
  });

  it("stops a put whose signal aborts while the body stalls, leaving no object", async () => {
    const controller = new AbortController();
    let release = () => {};
    let stalled = () => {};
    const atStall = new Promise<void>((resolve) => (stalled = resolve));
    async function* stalling(): AsyncGenerator<Uint8Array> {
      yield utf8("a first chunk");
      stalled();
      await new Promise<void>((resolve) => (release = resolve));
      yield utf8("never stored");
    }
    const put = store.put("abort/x", stalling(), { signal: controller.signal });
    await atStall; // the store took the first chunk and waits for the next
    controller.abort(new Error("client went away"));
    await expect(put).rejects.toThrow("client went away");
    release();
    expect(await store.size("abort/x")).toBeNull();
    const aborted = new AbortController();
    aborted.abort(new Error("already"));
    await expect(store.put("abort/y", once(utf8("x")), { signal: aborted.signal })).rejects.toThrow("already");
    expect(await store.size("abort/y")).toBeNull();
  });

  it("refuses keys that could leave the store or are malformed", async () => {
    const bad = ["", "../escape", "a/../../escape", "/abs/olute", "a//b", "a/./b", "trailing/", "nul\0byte", "back\\slash", "x".repeat(256)];
    for (const key of bad) {
      await expect(store.put(key, once(utf8("x"))), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.getRange(key, 0, 1)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.size(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
    await expect(keys(store, "../")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.deletePrefix("/etc")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    // Nothing was written beside the fs store's root.
    expect((await fs.readdir(tmp)).filter((f) => f.includes("escape"))).toEqual([]);
  });

  it("rejects reversed or negative ranges", async () => {
    await expect(store.getRange("big/data.bin", 10, 5)).rejects.toBeInstanceOf(RangeError);
    await expect(store.getRange("big/data.bin", -1, 5)).rejects.toBeInstanceOf(RangeError);
  });

  it(name === "s3" ? "presigns a download URL that fetch can read, with the filename and type" : "has no presigned URLs", async () => {
    await store.put("results/r1/out.csv", once(utf8("a,b\n1,2\n")), { contentType: "text/csv" });
    const url = await store.presignedGetUrl("results/r1/out.csv", { filename: "Zürich pairs.csv", contentType: "text/csv; charset=utf-8", expiresSeconds: 60 });
    if (name === "fs") {
      expect(url).toBeNull();
      return;
    }
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("a,b\n1,2\n");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Z_rich pairs.csv"; filename*=UTF-8''Z%C3%BCrich%20pairs.csv`);
  });

  it("serves a Parquet file to hyparquet through blobAsyncBuffer", async () => {
    // Larger than hyparquet's first footer read (512 KiB), so a few rows need only part of the file.
    const ids = Array.from({ length: 40_000 }, (_, i) => i);
    const names = ids.map((i) => `place ${i} ${sha256(utf8(String(i))).slice(0, 32)}`);
    const file = parquetWriteBuffer({
      columnData: [
        { name: "id", data: ids, type: "INT32" },
        { name: "name", data: names, type: "STRING" },
      ],
      rowGroupSize: 4_000,
    });
    await store.put("layers/l1/v1.parquet", once(new Uint8Array(file)));
    const slices: [number, number | undefined][] = [];
    const buffer = await blobAsyncBuffer(store, "layers/l1/v1.parquet");
    expect(buffer.byteLength).toBe(file.byteLength);
    const counting = { byteLength: buffer.byteLength, slice: (s: number, e?: number) => (slices.push([s, e]), buffer.slice(s, e)) };

    const rows = await parquetReadObjects({ file: counting, rowStart: 22_500, rowEnd: 22_503 });
    expect(rows).toEqual([22_500, 22_501, 22_502].map((i) => ({ id: i, name: names[i] })));
    // Only the footer and one row group were read, not the whole file.
    const read = slices.reduce((sum, [s, e]) => sum + (e ?? file.byteLength) - s, 0);
    expect(file.byteLength).toBeGreaterThan(2 * 512 * 1024);
    expect(read).toBeLessThan(file.byteLength * 0.75);

    const all = await parquetReadObjects({ file: await blobAsyncBuffer(store, "layers/l1/v1.parquet", { size: file.byteLength }) });
    expect(all).toEqual(ids.map((i) => ({ id: i, name: names[i] })));
    // ArrayBuffer.slice semantics: negative counts from the end.
    expect(Buffer.from(await buffer.slice(-4)).toString()).toBe("PAR1");
  });

  if (name === "fs") {
    it("keeps files private to the owner and leaves no temp files behind", async () => {
      const root = path.join(tmp, "fs-root");
      const stat = await fs.stat(path.join(root, "objects", "big", "data.bin"));
      expect(stat.mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.join(root, "objects", "big"))).mode & 0o777).toBe(0o700);
      expect((await fs.stat(root)).mode & 0o777).toBe(0o700);
      expect(await fs.readdir(path.join(root, "tmp"))).toEqual([]);
      // Deleting the last object of a folder removes the emptied folders.
      await store.put("deep/a/b/c", once(utf8("x")));
      await store.delete("deep/a/b/c");
      expect(await fs.readdir(path.join(root, "objects"))).not.toContain("deep");
    });
  }
});

describe("S3 store", () => {
  it("rejects a put the server refuses, and closes the body's source", async () => {
    const store = createS3BlobStore({
      bucket: "no-such-bucket",
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: s3.credentials,
      partSizeBytes: PART_BYTES,
    });
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (let i = 0; i < 20; i++) yield new Uint8Array(MiB);
      } finally {
        closed = true;
      }
    }
    await expect(store.put("x", source())).rejects.toMatchObject({ name: "NoSuchBucket" });
    expect(closed).toBe(true);
    // A missing bucket is a fault, not a missing object.
    await expect(store.getRange("x", 0, 10)).rejects.toMatchObject({ name: "NoSuchBucket" });
  });

  it("keeps one installation's keys apart from another's in the same bucket", async () => {
    const opts = { bucket: s3.bucket, endpoint: s3.endpoint, region: s3.region, credentials: s3.credentials };
    const a = createS3BlobStore({ ...opts, prefix: "tenant-a/" });
    const b = createS3BlobStore({ ...opts, prefix: "tenant-b" });
    await a.put("same/key", once(utf8("from a")));
    expect(await b.size("same/key")).toBeNull();
    expect(await keys(a, "same/")).toEqual(["same/key"]);
    expect(await b.deletePrefix("")).toBe(0);
    expect(await a.deletePrefix("")).toBe(1);
  });
});

describe("keys, dispositions and configuration", () => {
  it("accepts ordinary keys", () => {
    for (const key of ["a", "layers/0b7c/v12.parquet", "results/run-1/Zürich.csv", "x".repeat(255), ".hidden/file"])
      expect(() => assertBlobKey(key)).not.toThrow();
    expect(() => assertBlobKey(Array(6).fill("x".repeat(200)).join("/"))).toThrow(/longer than 1024 bytes/);
  });

  it("writes RFC 6266 attachment headers", () => {
    expect(attachmentDisposition("pairs.csv")).toBe('attachment; filename="pairs.csv"');
    expect(attachmentDisposition('a "b"\\.csv')).toBe(`attachment; filename="a _b__.csv"; filename*=UTF-8''a%20%22b%22%5C.csv`);
    expect(attachmentDisposition("l'été (1).csv")).toBe(`attachment; filename="l'_t_ (1).csv"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29.csv`);
  });

  it("requires S3_BUCKET when BLOB_STORE=s3 and defaults to the filesystem", () => {
    const bad = ZEnv.safeParse({ DATABASE_URL: "postgres://x", BLOB_STORE: "s3" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["S3_BUCKET", "S3_BUCKET is required when BLOB_STORE=s3"]]);
    const half = ZEnv.safeParse({ DATABASE_URL: "postgres://x", BLOB_STORE: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" });
    expect(half.error?.issues.map((i) => i.path.join("."))).toEqual(["S3_SECRET_ACCESS_KEY"]);

    const defaults = ZEnv.parse({ DATABASE_URL: "postgres://x" });
    expect([defaults.BLOB_STORE, defaults.S3_REGION, defaults.S3_PRESIGN_DOWNLOADS, defaults.S3_FORCE_PATH_STYLE]).toEqual([
      "fs",
      "us-east-1",
      false,
      undefined,
    ]);
    const s3env = ZEnv.parse({ DATABASE_URL: "postgres://x", BLOB_STORE: "s3", S3_BUCKET: "b", S3_FORCE_PATH_STYLE: "false", S3_PRESIGN_DOWNLOADS: "1" });
    expect([s3env.S3_FORCE_PATH_STYLE, s3env.S3_PRESIGN_DOWNLOADS]).toEqual([false, true]);
    expect(blobStoreFor(s3env).kind).toBe("s3");
    expect(blobStoreFor({ ...defaults, BLOB_DIR: path.join(tmp, "from-env") }).kind).toBe("fs");
  });
});
