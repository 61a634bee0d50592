/**
 * Tests of lib/processes/bundle-entry.ts: the bundle runs with plain node and keeps each module's
 * own import.meta; it is built in a private directory, and a directory or file another user
 * could have written is never reused or executed.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE_DIR, bundleEntry } from "@/lib/processes/bundle-entry";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROBE = path.join(ROOT, "lib/processes/test-fixtures/bundle-probe.ts");
const EXPECTED = { filename: PROBE, url: pathToFileURL(PROBE).href, projectRoot: ROOT };
/** The `nobody` user and group of Debian and most Linux systems. */
const NOBODY = 65534;
const runs = (script: string) => JSON.parse(execFileSync(process.execPath, [script], { cwd: "/", encoding: "utf8" }));

const temps: string[] = [];
function tempBase(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-test-"));
  temps.push(base);
  return base;
}
afterEach(() => {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

function modeOf(p: string): number {
  return fs.lstatSync(p).mode & 0o777;
}

describe("bundleEntry", () => {
  it("bundles an entry into one script that plain node runs, each module keeping its own import.meta", () => {
    const entry = bundleEntry(PROBE, "bundle-probe");
    expect(entry.execArgv).toEqual([]); // bundled, not the tsx fallback
    expect(path.dirname(entry.script)).toBe(path.join(ROOT, ".data", "bundles"));
    expect(entry.script).toMatch(/\/bundle-probe-[0-9a-f]{16}\.mjs$/);
    expect(runs(entry.script)).toEqual(EXPECTED);
    // built once per process, and again when its file is gone
    expect(bundleEntry(PROBE, "bundle-probe")).toBe(entry);
    fs.unlinkSync(entry.script);
    const again = bundleEntry(PROBE, "bundle-probe");
    expect(again.script).toBe(entry.script);
    expect(fs.existsSync(again.script)).toBe(true);
  });

  it("builds into a directory of the project's own data folder that only its user may enter", () => {
    bundleEntry(PROBE, "bundle-probe");
    const stat = fs.lstatSync(BUNDLE_DIR);
    expect(stat.isDirectory()).toBe(true);
    expect(stat.uid).toBe(process.getuid!());
    expect(modeOf(BUNDLE_DIR)).toBe(0o700);
    // the project's own folder, wherever the project is (a clone may itself live under /tmp)
    expect(BUNDLE_DIR).toBe(path.join(ROOT, ".data", "bundles"));
  });
});

describe("bundleEntry refuses what another user could have written", () => {
  const isRoot = process.getuid?.() === 0;

  it.runIf(isRoot)("does not reuse a bundle directory owned by another user, nor run the file planted in it", () => {
    const dir = path.join(tempBase(), "bundles");
    const honest = bundleEntry(PROBE, "bundle-probe", dir);
    expect(runs(honest.script)).toEqual(EXPECTED);
    // another user takes the directory over and replaces the bundle under the same name
    fs.writeFileSync(honest.script, "console.log(JSON.stringify({ planted: true }));\n");
    fs.chownSync(honest.script, NOBODY, NOBODY);
    fs.chownSync(dir, NOBODY, NOBODY);

    const entry = bundleEntry(PROBE, "bundle-probe", dir);
    expect(entry.execArgv).toEqual([]);
    expect(entry.script).toBe(honest.script); // same code, same name: rebuilt in place
    expect(fs.lstatSync(dir).uid).toBe(0);
    expect(fs.lstatSync(entry.script).uid).toBe(0);
    expect(runs(entry.script)).toEqual(EXPECTED);
  });

  it.runIf(isRoot)("does not reuse a bundle directory open to group or others", () => {
    const dir = path.join(tempBase(), "bundles");
    const first = bundleEntry(PROBE, "bundle-probe", dir);
    fs.chmodSync(dir, 0o777);
    fs.writeFileSync(path.join(dir, "left-by-someone.mjs"), "");
    fs.chownSync(path.join(dir, "left-by-someone.mjs"), NOBODY, NOBODY);
    const entry = bundleEntry(PROBE, "bundle-probe", dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual([path.basename(first.script)]); // made afresh: nothing of the open directory is kept
    expect(runs(entry.script)).toEqual(EXPECTED);
  });

  it.runIf(isRoot)("does not run a bundle file that another user owns or that others may write, even in a private directory", () => {
    const dir = path.join(tempBase(), "bundles");
    const first = bundleEntry(PROBE, "bundle-probe", dir);
    for (const tamper of [
      () => fs.chownSync(first.script, NOBODY, NOBODY),
      () => fs.chmodSync(first.script, 0o666),
      () => {
        const elsewhere = path.join(tempBase(), "elsewhere.mjs");
        fs.writeFileSync(elsewhere, "console.log(JSON.stringify({ planted: true }));\n", { mode: 0o600 });
        fs.rmSync(first.script);
        fs.symlinkSync(elsewhere, first.script);
      },
    ]) {
      fs.writeFileSync(first.script, "console.log(JSON.stringify({ planted: true }));\n");
      tamper();
      const entry = bundleEntry(PROBE, "bundle-probe", dir);
      const stat = fs.lstatSync(entry.script);
      expect(stat.isFile()).toBe(true);
      expect(stat.uid).toBe(0);
      expect(stat.mode & 0o022).toBe(0);
      expect(runs(entry.script)).toEqual(EXPECTED);
    }
  });

  it.runIf(isRoot)("falls back to tsx rather than build under a parent directory anyone may write to", () => {
    const base = tempBase();
    fs.chmodSync(base, 0o777);
    const entry = bundleEntry(PROBE, "bundle-probe", path.join(base, "bundles"));
    expect(entry).toEqual({ script: PROBE, execArgv: ["--conditions=react-server", "--import", "tsx"] });
    expect(fs.existsSync(path.join(base, "bundles"))).toBe(false);
  });
});
