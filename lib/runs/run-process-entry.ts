/**
 * The script and Node flags a run process (lib/runs/run-process.ts) is started with: its
 * bundle (lib/processes/bundle-entry.ts), built once per worker process, started with plain `node`.
 * Measured on an idle process (no layer loaded): 131 MB resident through tsx, 59 MB bundled;
 * each run process of the pool saves that.
 *
 * Result: `{ script, execArgv }` for `child_process.fork`; the pool adds its memory flags.
 */
import { fileURLToPath } from "node:url";
import { bundleEntry, type TNodeEntry } from "@/lib/processes/bundle-entry";

const SOURCE = fileURLToPath(new URL("./run-process.ts", import.meta.url));

/** The run process's script and flags, bundling it on the first call. */
export function runProcessEntry(): TNodeEntry {
  return bundleEntry(SOURCE, "run-process");
}
