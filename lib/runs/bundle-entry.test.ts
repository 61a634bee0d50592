/** Tests of lib/runs/bundle-entry.ts: the bundle runs with plain node and keeps each module's own import.meta. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleEntry } from "@/lib/runs/bundle-entry";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROBE = path.join(ROOT, "lib/runs/test-fixtures/bundle-probe.ts");

describe("bundleEntry", () => {
  it("bundles an entry into one script that plain node runs, each module keeping its own import.meta", () => {
    const entry = bundleEntry(PROBE, "bundle-probe");
    expect(entry.execArgv).toEqual([]); // bundled, not the tsx fallback
    expect(entry.script).toMatch(/flow-api-bundles\/bundle-probe-[0-9a-f]{16}\.mjs$/);
    const out = JSON.parse(execFileSync(process.execPath, [entry.script], { cwd: "/", encoding: "utf8" }));
    expect(out).toEqual({ filename: PROBE, url: pathToFileURL(PROBE).href, projectRoot: ROOT });
    // built once per process, and again when its file is gone
    expect(bundleEntry(PROBE, "bundle-probe")).toBe(entry);
    fs.unlinkSync(entry.script);
    const again = bundleEntry(PROBE, "bundle-probe");
    expect(again.script).toBe(entry.script);
    expect(fs.existsSync(again.script)).toBe(true);
  });
});
