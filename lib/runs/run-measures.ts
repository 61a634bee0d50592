/**
 * Where a run's time goes, as perf_hooks measures named `run.*` (`performance.now()` times, ms),
 * for any PerformanceObserver: `npm run bench` installs one in every process of the app
 * (bench/perf-observer.mjs) and lists them per run beside started_at → finished_at.
 *
 * - the worker (lib/runs/execute-run.ts): `run.before` (claimed → handed to a run process:
 *   the flow, the first progress, the inputs), `run.process` (handed → its answer received:
 *   messages both ways and the run process's work), `run.after` (answer → final transaction
 *   committed);
 * - the run process (worker/runtime/run-process.ts): `run.engine` (the flow's steps) and
 *   `run.files` (its result files and copies).
 *
 * Not kept in the process's timeline, which would grow by one entry per run.
 */
export function measure(name: `run.${string}`, start: number, end: number = performance.now()): void {
  performance.measure(name, { start, end });
  performance.clearMeasures(name);
}
