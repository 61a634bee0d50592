/**
 * Benchmark harness for `npm run bench`. A section is a module exporting
 * `bench(ctx): Promise<TBenchRow[]>`; bench/index.ts runs every section against a freshly
 * seeded database and prints one table. Targets are printed next to the measured value,
 * never asserted: benchmarks inform, tests decide.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";

export interface TBenchRow {
  /** Section, e.g. "engine" or "api". */
  group: string;
  /** What was measured, e.g. "country-stats processing time (median of 5)". */
  metric: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "< 2000 ms". */
  target?: string;
  /** Whether the target is met; undefined when there is no target. */
  ok?: boolean;
  note?: string;
}

export interface TBenchContext {
  databaseUrl: string;
  /** Starts the production app (web + worker) once, on demand; returns its base URL. */
  app: () => Promise<string>;
  /** The pids of the app's web and worker processes (their run and import processes are below them); empty before `app()`. */
  appPids: () => number[];
  /** The demo designer's credentials (for the design tool's routes). */
  designer: { email: string; password: string };
  /** Keys of the demo consumers. */
  keys: { demo: string; other: string };
  log: (m: string) => void;
  /**
   * The file the app's perf_hooks measures are appended to (bench/perf-observer.mjs), one JSON
   * line `{name, ms}` each: `run.engine` and `run.files` of every run (worker/runtime/run-process.ts).
   */
  measuresFile: string;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Runs `fn` `runs` times (after `warmup` unmeasured runs); returns each duration in ms. */
export async function timeRuns(fn: () => Promise<unknown> | unknown, runs: number, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Runs a script in a child Node process (same Node, same flags) and returns its JSON
 * output (last stdout line) and its peak resident memory (from /proc, sampled every 20 ms).
 * Used to measure memory of work in isolation from the harness.
 */
export function runIsolated<T>(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ result: T; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", script, ...args], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    let peak = 0;
    const sample = setInterval(async () => {
      try {
        const status = await import("node:fs").then((fs) => fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
      } catch {
        /* process gone */
      }
    }, 20);
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => {
      clearInterval(sample);
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      const last = out.trim().split("\n").pop() ?? "null";
      resolve({ result: JSON.parse(last) as T, peakRssMb: peak });
    });
  });
}

/** Prints rows as an aligned text table. */
export function printTable(rows: TBenchRow[]): void {
  const header = ["group", "metric", "value", "target", "ok", "note"];
  const cells = rows.map((r) => [
    r.group,
    r.metric,
    `${Number.isInteger(r.value) ? r.value : r.value.toFixed(r.value < 10 ? 2 : 1)} ${r.unit}`,
    r.target ?? "",
    r.ok === undefined ? "" : r.ok ? "yes" : "NO",
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => "| " + c.map((x, i) => x.padEnd(widths[i]!)).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const c of cells) console.log(line(c));
}

/**
 * Where the last `n` runs' time went inside started_at → finished_at, as the app measured it
 * (perf_hooks measures `run.*`, lib/runs/run-measures.ts, written by bench/perf-observer.mjs):
 * the medians of the run processes' engine and files times, and `each`, run by run in order,
 * "before|engine+files|messages|after" in ms (the worker's part before handing the run over;
 * the run process's two phases; the rest of the hand-over, both ways; the worker's part after,
 * up to the final commit): a run slower than the others shows where it lost its time. "?"
 * where there are none. With `of`, the runs came in turns of `every` series, and the measures
 * are those of the series at index `at` of each turn.
 */
export function processTimings(file: string, n: number, of = { every: 1, at: 0 }): { engineMs: string; encodeMs: string; each: string } {
  let measures: { name: string; ms: number }[];
  try {
    measures = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { name: string; ms: number });
  } catch {
    return { engineMs: "?", encodeMs: "?", each: "?" };
  }
  const last = (name: string) =>
    measures
      .filter((m) => m.name === name)
      .slice(-n * of.every)
      .filter((_, i) => i % of.every === of.at);
  const medianOf = (ms: { ms: number }[]) => (ms.length ? median(ms.map((m) => m.ms)).toFixed(0) : "?");
  const [engine, files, before, handed, after] = ["run.engine", "run.files", "run.before", "run.process", "run.after"].map(last) as { ms: number }[][];
  const at = (list: { ms: number }[], i: number) => list[i]?.ms.toFixed(0) ?? "?";
  const each = engine!
    .map((e, i) => {
      const messages = handed![i] && files![i] ? (handed![i]!.ms - e.ms - files![i]!.ms).toFixed(0) : "?";
      return `${at(before!, i)}|${e.ms.toFixed(0)}+${at(files!, i)}|${messages}|${at(after!, i)}`;
    })
    .join(", ");
  return { engineMs: medianOf(engine!), encodeMs: medianOf(files!), each: each || "?" };
}
