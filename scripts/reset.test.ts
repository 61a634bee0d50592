// npm run reset (scripts/reset.ts) deletes the local state, including a database that was moved
// out of the checkout (the case where deleting .data alone left the old database behind).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resetLocalState } from "./reset";

describe("resetLocalState", () => {
  it("deletes .data and the relocated database its .location file names, and nothing else", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "reset-"));
    const data = path.join(root, "checkout", ".data");
    const state = path.join(root, "state");
    const moved = path.join(state, "checkout-0123456789", "postgres");
    const other = path.join(state, "other-checkout", "postgres");
    for (const d of [path.join(data, "test-postgres"), moved, other]) fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(data, "test-postgres", "PG_VERSION"), "17\n");
    fs.writeFileSync(path.join(moved, "PG_VERSION"), "17\n");
    fs.writeFileSync(path.join(data, "postgres.location"), `${moved}\n`);
    fs.writeFileSync(path.join(data, "demo-keys.json"), "{}");
    fs.writeFileSync(path.join(data, "demo-users.json"), "{}");

    expect(resetLocalState(data).sort()).toEqual([data, moved].sort());
    expect(fs.existsSync(data)).toBe(false);
    expect(fs.existsSync(path.dirname(moved))).toBe(false);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.existsSync(path.join(root, "checkout"))).toBe(true);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("has nothing to do without .data", () => {
    expect(resetLocalState(path.join(os.tmpdir(), `no-such-${process.pid}`, ".data"))).toEqual([]);
  });
});
