/**
 * The filesystem blob store, the default: one file per object under a root folder
 * (`BLOB_DIR`, default `<project>/.data/blobs`). Layout: `<root>/objects/<key>` holds the
 * objects (the key's segments are folders), `<root>/tmp/` the uploads in progress, on the same
 * filesystem so that a finished upload is fsynced and renamed into place in one atomic step
 * (POSIX rename(2)): a reader sees the old object or the whole new one, never a part.
 * Files are private to the owner (0600, folders 0700).
 *
 * Limits: one process tree on one machine (several web and worker processes share the folder;
 * several machines need the S3 store); a key cannot be both an object and a folder of other
 * keys (`a` and `a/b` cannot coexist, S3 allows it); content types are not kept.
 */
import { createHash, randomUUID } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import {
  BlobNotFoundError,
  abortableChunks,
  assertBlobKey,
  assertBlobPrefix,
  assertByteRange,
  readRange,
  type TBlobInfo,
  type TBlobListing,
  type TBlobStore,
  type TByteRange,
  type TPutOptions,
} from "@/lib/blobs/blob-store";

/** Bytes per read of `stream`: large enough for disk and socket throughput, small enough to keep memory flat. */
const STREAM_CHUNK_BYTES = 1024 * 1024;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export interface TFsBlobStoreOptions {
  /** The root folder; created (0700) when missing. */
  root: string;
}

/** Is this a "no such file" error (or a path through a file, which is no object either)? */
function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The filesystem store rooted at `opts.root` (see the module comment). */
export function createFsBlobStore(opts: TFsBlobStoreOptions): TBlobStore {
  const root = path.resolve(opts.root);
  const objectsDir = path.join(root, "objects");
  const tmpDir = path.join(root, "tmp");
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return path.join(objectsDir, ...key.split("/"));
  };

  /** Opens an object for reading; a folder (a key's prefix) is no object. @throws BlobNotFoundError */
  async function openObject(key: string): Promise<{ handle: fs.FileHandle; size: number }> {
    const file = pathOf(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, fsConstants.O_RDONLY);
    } catch (err) {
      if (isMissing(err)) throw new BlobNotFoundError(key);
      throw err;
    }
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      throw new BlobNotFoundError(key);
    }
    return { handle, size: stat.size };
  }

  /** fsyncs a folder: its entries (a renamed file, a new folder) survive a crash. */
  async function syncFolder(dir: string): Promise<void> {
    const handle = await fs.open(dir, fsConstants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Removes an object's file, then the folders that left empty; false when there was no object. */
  async function removeObject(key: string): Promise<boolean> {
    const file = pathOf(key);
    try {
      await fs.unlink(file);
    } catch (err) {
      // EISDIR/EPERM: the key is a folder of other keys, so there is no object to delete.
      const code = (err as NodeJS.ErrnoException).code;
      if (isMissing(err) || code === "EISDIR" || code === "EPERM") return false;
      throw err;
    }
    await pruneEmptyDirs(path.dirname(file));
    return true;
  }

  /** Removes the empty folders between `dir` and the objects folder, deepest first. */
  async function pruneEmptyDirs(dir: string): Promise<void> {
    while (dir.startsWith(objectsDir + path.sep)) {
      try {
        await fs.rmdir(dir);
      } catch {
        return; // not empty (or already gone, or a concurrent put is filling it): stop here
      }
      dir = path.dirname(dir);
    }
  }

  /** Every object under the folder `dir` whose key starts with `prefix`, depth first. */
  async function* walk(dir: string, keyOfDir: string, prefix: string): AsyncGenerator<TBlobListing> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      const key = keyOfDir + entry.name;
      if (entry.isDirectory()) {
        // Descend only where keys can still start with the prefix.
        const sub = key + "/";
        if (sub.startsWith(prefix) || prefix.startsWith(sub)) yield* walk(path.join(dir, entry.name), sub, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        try {
          const stat = await fs.stat(path.join(dir, entry.name));
          yield { key, sizeBytes: stat.size, lastModified: stat.mtime };
        } catch (err) {
          if (!isMissing(err)) throw err; // deleted while listing: skip it
        }
      }
    }
  }

  /** Every object whose key starts with `prefix`, walked from the deepest folder that holds them all. */
  function listing(prefix: string): AsyncGenerator<TBlobListing> {
    assertBlobPrefix(prefix);
    const keyOfDir = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    return walk(keyOfDir ? path.join(objectsDir, ...keyOfDir.slice(0, -1).split("/")) : objectsDir, keyOfDir, prefix);
  }

  const store: TBlobStore = {
    kind: "fs",

    async put(key: string, body: AsyncIterable<Uint8Array>, opts: TPutOptions = {}): Promise<TBlobInfo> {
      const target = pathOf(key);
      opts.signal?.throwIfAborted();
      await fs.mkdir(tmpDir, { recursive: true, mode: DIR_MODE });
      const temp = path.join(tmpDir, randomUUID());
      const handle = await fs.open(temp, "wx", FILE_MODE);
      const hash = createHash("sha256");
      let sizeBytes = 0;
      try {
        try {
          for await (const chunk of abortableChunks(body, opts.signal)) {
            hash.update(chunk);
            let done = 0;
            while (done < chunk.byteLength) done += (await handle.write(chunk, done, chunk.byteLength - done)).bytesWritten;
            sizeBytes += chunk.byteLength;
          }
          await handle.sync();
        } finally {
          await handle.close();
        }
        await renameIntoPlace(temp, target);
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
      return { key, sizeBytes, sha256: hash.digest("hex") };
    },

    getRange: (key: string, start: number, end: number) => readRange(store, key, start, end),

    async *stream(key: string, range?: TByteRange): AsyncGenerator<Uint8Array> {
      if (range) assertByteRange(range.start, range.end);
      const { handle, size } = await openObject(key);
      try {
        const to = Math.min(range?.end ?? size, size);
        for (let at = range?.start ?? 0; at < to;) {
          // A read may return fewer bytes than asked (the next goes on from there); none when the file shrank under us.
          const length = Math.min(STREAM_CHUNK_BYTES, to - at);
          const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, at);
          if (bytesRead === 0) return;
          yield bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
          at += bytesRead;
        }
      } finally {
        await handle.close();
      }
    },

    async size(key: string): Promise<number | null> {
      try {
        const stat = await fs.stat(pathOf(key));
        return stat.isFile() ? stat.size : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key: string): Promise<void> {
      await removeObject(key);
    },

    async deletePrefix(prefix: string): Promise<number> {
      let deleted = 0;
      for await (const { key } of listing(prefix)) if (await removeObject(key)) deleted++;
      return deleted;
    },

    list: listing,

    async presignedGetUrl(key: string): Promise<string | null> {
      assertBlobKey(key);
      return null;
    },
  };
  return store;

  /**
   * Renames the finished temp file onto the key's path, creating its folders, then fsyncs the
   * folder so the rename itself survives a crash, and the parent of each folder mkdir made (a
   * new folder is an entry in its parent: without that, a crash could lose the path to the
   * object, not just the object). A folder another put made a moment earlier is synced by that
   * put; the callers that report an object durable (a run's files, a layer import) wait for all
   * of theirs. A concurrent delete may prune a folder between mkdir and rename, hence the retry.
   */
  async function renameIntoPlace(temp: string, target: string): Promise<void> {
    const dir = path.dirname(target);
    let created: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const made = await fs.mkdir(dir, { recursive: true, mode: DIR_MODE });
      if (made !== undefined && (created === undefined || made.length < created.length)) created = made;
      try {
        await fs.rename(temp, target);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 3) throw err;
      }
    }
    // `created`, the shallowest folder mkdir made, and those below it down to `dir` are new entries of their parents.
    const folders = [dir];
    for (let d = dir; created !== undefined && d !== created && d.length > root.length;) folders.push((d = path.dirname(d)));
    if (created !== undefined) folders.push(path.dirname(created));
    await Promise.all(folders.map(syncFolder));
  }
}
