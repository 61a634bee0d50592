/**
 * The run pool of a worker process: long-lived child processes (worker/runtime/run-process.ts),
 * one piece of work per process at a time, so each run's memory and time are bounded on their
 * own and a heavy run cannot starve or crash another one:
 *
 * - Memory: each process runs with `--max-old-space-size=<memoryMb>`. A run that outgrows it
 *   ends that process only (V8 aborts it); the run gets `ResourceLimitError` "memory <N> MB" at
 *   once, and the worker and the other runs go on. Processes, not `worker_threads`: a thread's
 *   `resourceLimits` cannot stop one huge allocation inside a builtin, which aborts the whole
 *   process; a child process is the unit the OS and V8 can end alone.
 * - Time: work that takes longer than `timeLimitMs` has its process killed:
 *   `ResourceLimitError` "run time <N> s".
 * - Cancel: the signal sends `abort`; a process that has not answered 5 s later is killed.
 * - A process that dies of anything else (killed from outside: the OOM killer, an operator)
 *   fails its work with `RunProcessLostError`, which the worker retries like a lost worker.
 * - The pool starts its processes up front (`warm`) and replaces one that died at once, so no
 *   run waits for a process to boot.
 *
 * What crosses the process boundary: lib/runs/run-task.ts (keys, counts and progress, no data).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { env } from "@/lib/env";
import { ResourceLimitError } from "@/lib/errors";
import { RunProcessLostError } from "@/lib/errors/run-failure";
import type { TFormatTask, TRunAnswer, TRunner, TRunTask, TWrittenFile } from "@/lib/runs/run-task";
import { failureToError, type TFromProcess, type TToProcess } from "@/worker/runtime/protocol";
import { processEntry } from "@/lib/processes/process-entry";

const RUN_PROCESS = fileURLToPath(new URL("./run-process.ts", import.meta.url));

/** Time a process gets to stop after `abort` before it is killed. */
const ABORT_GRACE_MS = 5_000;

export interface TPoolLimits {
  /** Processes (= pieces of work at once). */
  size: number;
  /** Old-generation heap (`--max-old-space-size`) of each process, MB. */
  memoryMb: number;
  /** Longest one piece of work (a run, or making a format) may take before it is stopped, ms. */
  timeLimitMs: number;
}

let nextRequestId = 1;

/** One run process. Obtained from `RunPool.acquire`, given back with `release`. */
export class RunProcess {
  private readonly child: ChildProcess;
  private pending: {
    id: number;
    resolve: (answer: TRunAnswer) => void;
    reject: (err: Error) => void;
    onProgress?: (done: number, total: number) => void;
  } | null = null;
  /** Set once the process is gone (or going): never reused. */
  dead = false;
  /** Why we killed it, when we did (time limit, abort grace). */
  private killedFor: Error | null = null;
  /** V8 said the heap was full before the process ended. */
  private outOfMemory = false;

  constructor(
    private readonly pool: RunPool,
    private readonly limits: TPoolLimits,
  ) {
    const entry = processEntry(RUN_PROCESS, "run-process");
    this.child = fork(entry.script, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${limits.memoryMb}`],
      serialization: "advanced",
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
      } else this.fail(new RunProcessLostError(`The run process ended unexpectedly (${signal ?? `exit code ${code}`})`));
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
    if (msg.type === "progress") return p.onProgress?.(msg.done, msg.total);
    this.pending = null;
    if (msg.type === "done") p.resolve({ results: msg.results, files: msg.files });
    else p.reject(failureToError(msg.failure));
  }

  /** Sends one request and settles with the process's answer, the time limit, or the process's death. */
  private request(
    msg: Extract<TToProcess, { type: "run" | "format" }>,
    opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
  ): Promise<TRunAnswer> {
    if (this.dead) return Promise.reject(new RunProcessLostError("The run process is gone"));
    if (this.pending) return Promise.reject(new Error("The run process is busy"));
    return new Promise<TRunAnswer>((resolve, reject) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        this.post({ type: "abort" });
        graceTimer = setTimeout(() => this.terminate(), ABORT_GRACE_MS);
      };
      const timer = setTimeout(() => {
        const seconds = Number((this.limits.timeLimitMs / 1000).toFixed(1));
        this.terminate(new ResourceLimitError(`The run took longer than the ${seconds} s a run may take and was stopped.`, `run time ${seconds} s`));
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

  /** Runs a flow in this process: engine, then each result's copy and requested file, written to the blob store. */
  run(task: TRunTask): Promise<TRunAnswer> {
    const { onProgress, signal, ...rest } = task;
    return this.request({ type: "run", id: nextRequestId++, ...rest }, { onProgress, signal });
  }

  /** Makes another format of one completed result from its copy. */
  async format(task: TFormatTask): Promise<TWrittenFile> {
    const { signal, ...rest } = task;
    return (await this.request({ type: "format", id: nextRequestId++, ...rest }, { signal })).files[0]!;
  }

  /** The OS process id (for tests and logs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Gives the process back to the pool. */
  release(): void {
    this.pool.giveBack(this);
  }

  /** Kills the process (its work, if any, fails with `reason` or as lost). */
  terminate(reason?: Error): void {
    this.dead = true;
    this.killedFor ??= reason ?? null;
    this.child.kill("SIGKILL");
  }
}

/** A bounded set of run processes; see the module doc. */
export class RunPool implements TRunner {
  private readonly idle: RunProcess[] = [];
  private readonly all = new Set<RunProcess>();
  private readonly waiting: ((t: RunProcess) => void)[] = [];
  private closed = false;

  constructor(readonly limits: TPoolLimits) {}

  private spawn(): RunProcess {
    const t = new RunProcess(this, this.limits);
    this.all.add(t);
    return t;
  }

  /** Starts every process of the pool now, so that no run waits for one to boot. */
  warm(): void {
    while (!this.closed && this.all.size < this.limits.size) this.idle.unshift(this.spawn());
  }

  /** A process for one piece of work: an idle one, a new one, or the next one given back. */
  acquire(): Promise<RunProcess> {
    for (let t = this.idle.pop(); t; t = this.idle.pop()) if (!t.dead) return Promise.resolve(t);
    if (this.all.size < this.limits.size) return Promise.resolve(this.spawn());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Runs `work` on a process of the pool and gives the process back afterwards. */
  async with<T>(work: (p: RunProcess) => Promise<T>): Promise<T> {
    const p = await this.acquire();
    try {
      return await work(p);
    } finally {
      p.release();
    }
  }

  /** Runs a flow in a process of the pool (`RunProcess.run`). */
  run(task: TRunTask): Promise<TRunAnswer> {
    return this.with((p) => p.run(task));
  }

  /** Makes another format of one completed result in a process of the pool (`RunProcess.format`). */
  format(task: TFormatTask): Promise<TWrittenFile> {
    return this.with((p) => p.format(task));
  }

  /** @internal called by RunProcess.release */
  giveBack(t: RunProcess): void {
    if (t.dead) return this.forget(t);
    const next = this.waiting.shift();
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
    if (next) next(fresh);
    else this.idle.unshift(fresh);
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

let pool: RunPool | undefined;

/** The worker's run pool: one process per run slot (`WORKER_CONCURRENCY`), limits from the environment. */
export function runPool(): RunPool {
  const e = env();
  pool ??= new RunPool({ size: e.WORKER_CONCURRENCY, memoryMb: e.RUN_MEMORY_MB, timeLimitMs: e.RUN_TIME_LIMIT_SECONDS * 1000 });
  return pool;
}
