// npm run bench - every benchmark section against a freshly seeded database, one table.
// `npm run bench -- engine` runs only the named sections.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DATA_DIR, openDatabase } from "@/lib/database/bootstrap";
import { freshDemoDatabase } from "../scripts/fresh-demo-database";
import { buildIfNeeded, runThenStop, startApp, waitHealthy } from "../scripts/app-processes";
import { printTable, type TBenchContext, type TBenchRow } from "./harness";

const SECTIONS = ["client", "engine", "api", "mcp", "doors", "data"] as const;
const DESIGNER = { email: "designer@demo.local", password: `bench-${process.pid}-designer` };
const MEASURES = path.join(os.tmpdir(), `flow-api-bench-measures-${process.pid}.jsonl`);
/** Writes the app's perf_hooks measures to MEASURES (see the file). */
const OBSERVER = new URL("./perf-observer.mjs", import.meta.url).pathname;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const log = (m: string) => console.error(`[bench] ${m}`);

const database = await openDatabase({ name: "bench-postgres", port: Number(process.env.BENCH_PG_PORT ?? 54331), log });
let app: ReturnType<typeof startApp> | undefined;
const stop = async () => {
  await app?.stop();
  await database.stop();
  fs.rmSync(MEASURES, { force: true });
};
await runThenStop(stop, async () => {
  const keys = await freshDemoDatabase(database.url, path.join(DATA_DIR, "bench-keys.json"), log, { designer: DESIGNER });

  // Every section may start app processes; build once up front.
  buildIfNeeded(log, { ...process.env, DATABASE_URL: database.url, NODE_ENV: "production" });
  let baseUrl: Promise<string> | undefined;
  const ctx: TBenchContext = {
    databaseUrl: database.url,
    keys,
    measuresFile: MEASURES,
    log,
    designer: DESIGNER,
    appPids: () => [app?.web.pid, app?.worker?.pid].filter((p): p is number => p !== undefined),
    app: () =>
      (baseUrl ??= (async () => {
        // A run over the 10M-point layer (section "data") may work minutes: the time limit is raised, the memory budget is not.
        const env = {
          ...process.env,
          DATABASE_URL: database.url,
          NODE_ENV: "production" as const,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${OBSERVER}`.trim(),
          BENCH_MEASURES: MEASURES,
          RUN_TIME_LIMIT_SECONDS: "600",
        };
        buildIfNeeded(log, env);
        const port = 3900 + Math.floor(Math.random() * 90);
        app = startApp({ port, host: "127.0.0.1", env, quiet: true });
        const url = `http://127.0.0.1:${port}`;
        await waitHealthy(url, 120_000);
        return url;
      })()),
  };

  const rows: TBenchRow[] = [];
  for (const name of SECTIONS) {
    if (wanted.length && !wanted.includes(name)) continue;
    let mod: { bench: (c: TBenchContext) => Promise<TBenchRow[]> };
    try {
      mod = (await import(`./${name}.ts`)) as typeof mod;
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_MODULE_NOT_FOUND") continue;
      throw err;
    }
    log(`section ${name}...`);
    rows.push(...(await mod.bench(ctx)));
  }
  console.log(`\nFlow API service benchmarks (${new Date().toISOString()}, ${(await import("node:os")).cpus().length} cores, Node ${process.version})\n`);
  printTable(rows);
  return 0;
});
