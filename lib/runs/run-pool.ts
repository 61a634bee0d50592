/**
 * The run pool of a worker process: long-lived child processes (lib/runs/run-process.ts), one
 * run per process at a time, so each run's memory and time are bounded on their own and a
 * heavy run cannot starve or crash another one:
 *
 * - Memory: each process runs with `--max-old-space-size=<memoryMb>` (its JS heap, the layers it
 *   caches included) and a young generation of `SEMI_SPACE_MB` semi-spaces. A run that outgrows it ends that process only (V8 aborts it); the run
 *   gets `ResourceLimitError` "memory <N> MB" at once, and the worker process and the other runs
 *   go on. Processes, not `worker_threads`: a thread's `resourceLimits` cannot stop one huge
 *   allocation inside a builtin (a `flatMap` over millions of items), which aborts the whole
 *   process; a child process is the unit the OS and V8 can end alone.
 * - Time: a run (engine and the files written before it is final) that takes longer than
 *   `timeLimitMs` has its process killed: `ResourceLimitError` "run time <N> s".
 * - Cancel: the signal sends `abort`; a process that has not answered 5 s later is killed.
 * - Layers: a process caches the layers it decoded by (id, data version); the pool remembers which
 *   versions each process holds and sends a layer's stored (gzipped) content only to one that
 *   lacks it. Idle processes are reused most-recently-used first, so sequential runs land on a
 *   warm cache. The pool starts its processes up front (`warm`) and replaces one that died at
 *   once, so no run waits for a process to boot.
 * - Preloading: the pool keeps the stored content of the layers runs used lately (the last
 *   `RECENT_LAYERS`, a few MB gzipped) and sends it to idle processes that lack it, so a run that
 *   arrives while another one is busy does not wait for a layer to be decoded.
 * - Files: each chunk of a file is sent to the worker as soon as the encoder produced it
 *   (`onChunk`), then the file's size and checksum (`onFile`).
 * - Memory back: `release` lets a process that grew during its run give that memory back to
 *   the OS while idle (a "last resort" GC, hence `--expose-gc`; run-process.ts `trimMemory`).
 * - Background work: files written after their run is final (`encode` with `background`) run at
 *   a lower CPU priority (nice `BACKGROUND_NICE`), so they do not slow down the runs that callers
 *   are waiting for. Where the OS does not let the worker restore the priority afterwards (no
 *   CAP_SYS_NICE), this is skipped: the pool probes that once. While any run of the pool is
 *   working, background encodings also pause, for 5 s at most in all, then go on at a fifth of a
 *   core (`throttle`; run-process.ts `giveWay`).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { ResourceLimitError } from "@/lib/errors";
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TResultFormat } from "@/lib/formats/types";
import {
  failureToError,
  type TFileRequest,
  type TFromProcess,
  type TLayerContent,
  type TResultSummary,
  type TProcessInput,
  type TToProcess,
} from "@/lib/runs/run-process-protocol";
import { runProcessEntry } from "@/lib/runs/run-process-entry";
import { withMallocEnv } from "@/lib/runs/process-memory";

/**
 * Semi-space of each process's young generation, MB (`--max-semi-space-size`). V8 sizes it from
 * the old generation's limit, so a 256 MB heap got small semi-spaces: most of a run's short-lived
 * garbage (strings of the CSV writer, match records) was promoted and collected by full GCs.
 * Measured on nearby-cities 5,000 rows at 30 km (engine + CSV + GeoJSON, medians): default
 * 473 + 781 ms, peak RSS 420 MB; 16 MB 368 + 396 ms, 332 MB; 32 MB 350 + 346 ms, 344 MB; 64 MB
 * slower again (490 + 747 ms, 394 MB).
 */
const SEMI_SPACE_MB = 32;

/** Nice value (0 = normal .. 19 = lowest) of a run process while it writes files after its run is final. */
const BACKGROUND_NICE = 10;

/** The thread ids of a process (Linux `/proc/<pid>/task`), or just the pid elsewhere. */
function threadIds(pid: number): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid];
  }
}

/** Whether this worker may lower a run process's priority and raise it back (probed on first use). */
let reniceWorks: boolean | undefined;

/** Layers whose content the pool keeps for preloading. */
const RECENT_LAYERS = 4;

/** Time a process gets to stop after `abort` before it is killed. */
const ABORT_GRACE_MS = 5_000;

export interface TPoolLimits {
  /** Processes (= runs at once). */
  size: number;
  /** Old-generation heap (`--max-old-space-size`) of each process, MB. */
  memoryMb: number;
  /** Longest a run may work before it is stopped, ms. */
  timeLimitMs: number;
}

/** One complete result file, as the process reported it after its chunks. */
export interface TEncodedFile {
  key: string;
  format: TResultFormat;
  sizeBytes: number;
  sha256: string;
  /** Number of chunks sent before it (`seq` 0 .. chunks-1). */
  chunks: number;
}

/** One chunk of a file being written. */
export interface TEncodedChunk {
  key: string;
  format: TResultFormat;
  seq: number;
  bytes: Uint8Array;
}

/**
 * Where a request's files go: each chunk as it is written, then each complete file. A promise
 * from `onChunk` (the chunk's storage) is awaited before the process is told it may send
 * another (`MAX_CHUNKS_IN_FLIGHT`).
 */
export interface TFileCallbacks {
  onChunk: (chunk: TEncodedChunk) => void | Promise<unknown>;
  onFile: (file: TEncodedFile) => void;
}

export interface TRunTask {
  flow: TFlowVersion;
  inputs: Record<string, TProcessInput>;
  params: Record<string, unknown>;
  /** Every layer the inputs name, with its version; `loadLayer` is called for those the process lacks. */
  layers: { id: string; version: number; kind: "features" | "table" }[];
  loadLayer: (id: string) => Promise<Uint8Array>;
  files: TFileRequest[];
  maxResultBytes: number;
  /** Most rows or features one step may produce. */
  maxRows: number;
  onProgress?: (done: number, total: number) => void;
  onChunk: TFileCallbacks["onChunk"];
  onFile: TFileCallbacks["onFile"];
  signal?: AbortSignal;
}

let nextRequestId = 1;

/** One run process and what it holds. Obtained from `RunPool.acquire`, given back with `release`. */
export class RunProcess {
  private readonly child: ChildProcess;
  /** Layer id -> data version this process has cached. */
  private readonly cached = new Map<string, number>();
  private pending: {
    id: number;
    resolve: (results: TResultSummary[]) => void;
    reject: (err: Error) => void;
    onChunk: TFileCallbacks["onChunk"];
    onFile: TFileCallbacks["onFile"];
    onProgress?: (done: number, total: number) => void;
  } | null = null;
  /** Set once the process is gone (or going): never reused. */
  dead = false;
  /** Its priority could not be restored: ended instead of reused. */
  private retire = false;
  /** Why we killed it, when we did (time limit). */
  private killedFor: Error | null = null;
  /** V8 said the heap was full before the process ended. */
  private outOfMemory = false;

  constructor(
    private readonly pool: RunPool,
    private readonly limits: TPoolLimits,
  ) {
    const entry = runProcessEntry();
    this.child = fork(entry.script, [], {
      // --expose-gc: an idle process gives the memory of a large run back (run-process.ts trimMemory)
      execArgv: [...entry.execArgv, `--max-old-space-size=${limits.memoryMb}`, `--max-semi-space-size=${SEMI_SPACE_MB}`, "--expose-gc"],
      serialization: "advanced",
      env: withMallocEnv(process.env),
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    this.child.on("message", (msg: TFromProcess) => this.onMessage(msg));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      // V8's own report of a full heap, printed just before it aborts the process.
      if (chunk.includes("heap out of memory") || chunk.includes("Reached heap limit")) this.outOfMemory = true;
      process.stderr.write(chunk);
    });
    this.child.on("error", (err) => {
      this.dead = true;
      this.fail(err);
    });
    this.child.on("exit", (code, signal) => {
      this.dead = true;
      if (this.killedFor) this.fail(this.killedFor);
      else if (this.outOfMemory || signal === "SIGABRT" || code === 134) {
        this.fail(
          new ResourceLimitError(
            `The run needed more than the ${limits.memoryMb} MB of memory a run may use and was stopped; narrow the request (fewer rows, a smaller radius or area, a higher threshold).`,
            `memory ${limits.memoryMb} MB`,
          ),
        );
      } else this.fail(new Error(`The run process exited (${signal ?? `exit code ${code}`})`));
      this.pool.forget(this);
    });
  }

  private fail(err: Error): void {
    const p = this.pending;
    this.pending = null;
    p?.reject(err);
  }

  private onMessage(msg: TFromProcess): void {
    const p = this.pending;
    if (!p || msg.id !== p.id) return;
    if (msg.type === "progress") p.onProgress?.(msg.done, msg.total);
    else if (msg.type === "chunk") {
      const id = msg.id;
      void Promise.resolve(p.onChunk({ key: msg.key, format: msg.format, seq: msg.seq, bytes: msg.bytes }))
        .catch(() => {}) // the storage's failure is reported by its owner; the process must not wait forever
        .then(() => this.post({ type: "ack", id }));
    } else if (msg.type === "file") p.onFile({ key: msg.key, format: msg.format, sizeBytes: msg.sizeBytes, sha256: msg.sha256, chunks: msg.chunks });
    else {
      this.pending = null;
      if (msg.type === "done") p.resolve(msg.results);
      else p.reject(failureToError(msg.failure));
    }
  }

  /** Sends one request and settles with the process's answer, the time limit, or the process's death. */
  private request(
    msg: Extract<TToProcess, { type: "run" | "encode" }>,
    opts: TFileCallbacks & { onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
  ): Promise<TResultSummary[]> {
    if (this.dead) return Promise.reject(new Error("The run process is gone"));
    if (this.pending) return Promise.reject(new Error("The run process is busy"));
    return new Promise<TResultSummary[]>((resolve, reject) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        this.post({ type: "abort" });
        graceTimer = setTimeout(() => this.terminate(), ABORT_GRACE_MS);
      };
      const timer = setTimeout(() => {
        const seconds = Number((this.limits.timeLimitMs / 1000).toFixed(1));
        this.fail(new ResourceLimitError(`The run took longer than the ${seconds} s a run may take and was stopped.`, `run time ${seconds} s`));
        this.terminate();
      }, this.limits.timeLimitMs);
      const settle = () => {
        clearTimeout(timer);
        clearTimeout(graceTimer);
        opts.signal?.removeEventListener("abort", onAbort);
      };
      this.pending = {
        id: msg.id,
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
        onChunk: opts.onChunk,
        onFile: opts.onFile,
        onProgress: opts.onProgress,
      };
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.post(msg);
    });
  }

  private post(msg: TToProcess): void {
    if (this.dead || !this.child.connected) return;
    this.child.send(msg, (err) => {
      if (err) this.fail(err);
    });
  }

  /** Runs a flow in this process: engine, then the requested files (`task.onChunk` for each chunk, `task.onFile` for each file). */
  async run(task: TRunTask): Promise<TResultSummary[]> {
    this.pool.foregroundStarted();
    try {
      return await this.runNow(task);
    } finally {
      this.pool.foregroundEnded();
    }
  }

  private async runNow(task: TRunTask): Promise<TResultSummary[]> {
    const send: TLayerContent[] = [];
    for (const l of task.layers) {
      if (this.cached.get(l.id) === l.version || send.some((s) => s.id === l.id)) continue;
      send.push({ id: l.id, version: l.version, kind: l.kind, content: await task.loadLayer(l.id) });
    }
    for (const l of send) {
      this.cached.set(l.id, l.version);
      this.pool.remember(l);
    }
    return this.request(
      {
        type: "run",
        id: nextRequestId++,
        flow: task.flow,
        inputs: task.inputs,
        params: task.params,
        layers: send,
        files: task.files,
        maxResultBytes: task.maxResultBytes,
        maxRows: task.maxRows,
      },
      { onChunk: task.onChunk, onFile: task.onFile, onProgress: task.onProgress, signal: task.signal },
    );
  }

  /**
   * Writes more files of the last run's results (same limits). `background`: at a lower CPU
   * priority (see the module doc); the process also drops the results and gives their memory
   * back before it answers, at that priority, so call `release` next.
   */
  async encode(files: TFileRequest[], opts: TFileCallbacks & { signal?: AbortSignal; background?: boolean }): Promise<void> {
    if (files.length === 0) return;
    const background = opts.background === true;
    const lowered = background && this.renice(BACKGROUND_NICE);
    if (background) this.pool.backgroundStarted(this);
    try {
      await this.request({ type: "encode", id: nextRequestId++, files, release: background, throttle: background && this.pool.throttling }, opts);
    } finally {
      if (background) this.pool.backgroundEnded(this);
      if (lowered && !this.renice(0)) this.retire = true;
    }
  }

  /** Sets the process's nice value; false when the OS refuses (or the process is gone). */
  private renice(nice: number): boolean {
    const pid = this.child.pid;
    if (this.dead || pid === undefined) return false;
    if (reniceWorks === undefined) {
      try {
        os.setPriority(pid, 1);
        os.setPriority(pid, 0);
        reniceWorks = true;
      } catch {
        reniceWorks = false;
      }
    }
    if (!reniceWorks) return false;
    try {
      // Linux applies a nice value to one thread: every thread of the process (V8's GC helpers,
      // libuv's pool) gets it, else the collector of a background encoding still competes.
      for (const tid of threadIds(pid)) os.setPriority(tid, nice);
      return true;
    } catch {
      return false;
    }
  }

  /** The OS process id (for tests and logs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** @internal tells a background encoding to give way to runs, or not (RunPool). */
  throttle(on: boolean): void {
    this.post({ type: "throttle", on });
  }

  /** Sends the layers of `recent` this process lacks (while it is idle). */
  preload(recent: Iterable<TLayerContent>): void {
    if (this.dead || this.pending) return;
    const layers = [...recent].filter((l) => this.cached.get(l.id) !== l.version);
    if (layers.length === 0) return;
    for (const l of layers) this.cached.set(l.id, l.version);
    this.post({ type: "preload", layers });
  }

  /** Gives the process back to the pool (its last results are dropped). */
  release(): void {
    if (this.retire) return this.terminate(); // stuck at a low priority: the pool starts a fresh one
    this.post({ type: "release" });
    this.pool.giveBack(this);
  }

  /** Kills the process (its run, if any, fails with `reason` or as stopped). */
  terminate(reason?: Error): void {
    this.dead = true;
    this.killedFor ??= reason ?? null;
    this.child.kill("SIGKILL");
  }
}

/** A bounded set of run processes; see the module doc. */
export class RunPool {
  private readonly idle: RunProcess[] = [];
  private readonly all = new Set<RunProcess>();
  private readonly waiting: ((t: RunProcess) => void)[] = [];
  private closed = false;

  constructor(readonly limits: TPoolLimits) {}

  private readonly recent = new Map<string, TLayerContent>();
  /** Runs working now (`RunProcess.run`), and the processes writing background files. */
  private foreground = 0;
  private readonly background = new Set<RunProcess>();
  private throttled = false;

  /** Whether a run is working in this pool now. */
  get busy(): boolean {
    return this.foreground > 0;
  }

  /**
   * Whether background encodings give way now: while a run works, unless a run waits for a
   * process (then the background work is what it waits for, and goes at full speed).
   */
  get throttling(): boolean {
    return this.foreground > 0 && this.waiting.length === 0;
  }

  /** Tells the background encodings when `throttling` changed. */
  private updateThrottle(): void {
    const on = this.throttling;
    if (on === this.throttled) return;
    this.throttled = on;
    for (const t of this.background) t.throttle(on);
  }

  /** @internal */
  foregroundStarted(): void {
    this.foreground++;
    this.updateThrottle();
  }

  /** @internal */
  foregroundEnded(): void {
    this.foreground--;
    this.updateThrottle();
  }

  /** @internal */
  backgroundStarted(t: RunProcess): void {
    this.background.add(t);
  }

  /** @internal */
  backgroundEnded(t: RunProcess): void {
    this.background.delete(t);
  }

  private spawn(): RunProcess {
    const t = new RunProcess(this, this.limits);
    this.all.add(t);
    t.preload(this.recent.values());
    return t;
  }

  /** @internal a layer's content a run needed: kept for preloading, and sent to the idle processes now. */
  remember(layer: TLayerContent): void {
    this.recent.delete(layer.id);
    this.recent.set(layer.id, layer);
    while (this.recent.size > RECENT_LAYERS) this.recent.delete(this.recent.keys().next().value!);
    for (const t of this.idle) t.preload(this.recent.values());
  }

  /** Starts every process of the pool now, so that no run waits for one to boot. */
  warm(): void {
    while (!this.closed && this.all.size < this.limits.size) this.idle.unshift(this.spawn());
  }

  /** A process for one run: the most recently used idle one, a new one, or the next one given back. */
  acquire(): Promise<RunProcess> {
    for (let t = this.idle.pop(); t; t = this.idle.pop()) if (!t.dead) return Promise.resolve(t);
    if (this.all.size < this.limits.size) return Promise.resolve(this.spawn());
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.updateThrottle();
    });
  }

  /** @internal called by RunProcess.release */
  giveBack(t: RunProcess): void {
    if (t.dead) return this.forget(t);
    const next = this.waiting.shift();
    this.updateThrottle();
    if (next) next(t);
    else this.idle.push(t);
  }

  /** @internal a process that died: it leaves the pool, and a new one takes its place at once. */
  forget(t: RunProcess): void {
    if (!this.all.delete(t)) return;
    const i = this.idle.indexOf(t);
    if (i >= 0) this.idle.splice(i, 1);
    if (this.closed) return;
    const fresh = this.spawn();
    const next = this.waiting.shift();
    this.updateThrottle();
    if (next) next(fresh);
    else this.idle.unshift(fresh); // a cold process: used after the warm ones
  }

  /** Number of live processes (for tests and logs). */
  get processes(): number {
    return this.all.size;
  }

  /** Stops every process. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.all) t.terminate();
    this.all.clear();
    this.idle.length = 0;
  }
}
