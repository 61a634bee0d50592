// npm run reset - start over with a new local demo: deletes the embedded database (also when it
// lives outside the checkout, in FLOW_API_STATE_DIR, as `.data/postgres.location` records) and
// everything in `.data/` (generated demo keys and passwords, the session secret, test state).
// The next `npm start` creates a new database, new keys and new passwords and prints them.
//
// Deleting `.data` alone is not enough when the database was moved out of the checkout: the old
// database then still knows the keys and users, while the files that remembered their secrets are
// gone ("already created", "password changed since" for users nobody changed).
// Refuses while a database of this checkout is running, and touches nothing behind DATABASE_URL.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DATA_DIR } from "@/lib/database/bootstrap";
import { runningServer } from "@/lib/database/embedded";

/**
 * Deletes `dataDir` and every embedded database data folder its `*.location` files point at.
 * Returns the folders deleted. @throws Error naming the running server (pid, port) when one is.
 */
export function resetLocalState(dataDir: string): string[] {
  if (!fs.existsSync(dataDir)) return [];
  const moved = fs
    .readdirSync(dataDir)
    .filter((f) => f.endsWith(".location"))
    .map((f) => fs.readFileSync(path.join(dataDir, f), "utf8").trim())
    .filter(Boolean);
  const databases = [
    ...moved,
    ...fs
      .readdirSync(dataDir)
      .map((f) => path.join(dataDir, f))
      .filter((p) => fs.existsSync(path.join(p, "PG_VERSION"))),
  ];
  for (const dir of databases) {
    const running = runningServer(dir);
    if (running) throw new Error(`The database in ${dir} is running (pid ${running.pid}, port ${running.port}): stop npm start (Ctrl-C) first.`);
  }
  const deleted: string[] = [];
  for (const dir of moved) {
    if (!fs.existsSync(dir)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    deleted.push(dir);
    // The checkout's folder in the state directory, once empty.
    const parent = path.dirname(dir);
    if (fs.existsSync(parent) && fs.readdirSync(parent).length === 0) fs.rmdirSync(parent);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  deleted.push(dataDir);
  return deleted;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.env.DATABASE_URL) {
    console.error(
      "[reset] DATABASE_URL is set: reset does not touch that database. Empty it yourself (or unset DATABASE_URL to use the embedded one), then run npm run reset again to forget the local keys and passwords.",
    );
    process.exit(1);
  }
  try {
    const deleted = resetLocalState(DATA_DIR);
    if (deleted.length === 0) console.log("[reset] nothing to delete: .data does not exist.");
    for (const d of deleted) console.log(`[reset] deleted ${d}`);
    console.log("[reset] the next npm start creates a new database, demo keys and passwords, and prints them.");
  } catch (err) {
    console.error(`[reset] ${(err as Error).message}`);
    process.exit(1);
  }
}
