// Loaded by `npm run bench` into every process of the app it starts (NODE_OPTIONS=--import):
// appends each perf_hooks measure named `run.*` (worker/runtime/run-process.ts) to the file
// BENCH_MEASURES names, one JSON line `{name, ms}` each; bench/engine.ts reads them.
import { appendFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

const file = process.env.BENCH_MEASURES;
if (file) {
  new PerformanceObserver((list) => {
    const lines = list
      .getEntries()
      .filter((e) => e.name.startsWith("run."))
      .map((e) => `${JSON.stringify({ name: e.name, ms: e.duration })}\n`);
    if (lines.length) appendFileSync(file, lines.join(""));
  }).observe({ entryTypes: ["measure"] });
}
