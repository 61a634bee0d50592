/**
 * Tests of scripts/build-processes.ts and lib/processes/process-entry.ts: a bundle runs with
 * plain node and keeps each module's own import.meta; a process started from sources starts
 * its children from sources.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { processEntry } from "@/lib/processes/process-entry";
import { buildProcessBundles } from "./build-processes";

const ROOT = path.resolve(import.meta.dirname, "..");
const PROBE = path.join(ROOT, "scripts/test-fixtures/bundle-probe.ts");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-test-"));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe("buildProcessBundles", () => {
  it("bundles an entry into one script that plain node runs, each module keeping its own import.meta", async () => {
    await buildProcessBundles({ "bundle-probe": PROBE }, out);
    const printed = JSON.parse(execFileSync(process.execPath, [path.join(out, "bundle-probe.mjs")], { cwd: "/", encoding: "utf8" }));
    expect(printed).toEqual({ filename: PROBE, url: pathToFileURL(PROBE).href, projectRoot: ROOT });
  });
});

describe("processEntry", () => {
  it("starts a process from its source through tsx when this process does not run from a bundle", () => {
    expect(processEntry(PROBE, "bundle-probe")).toEqual({ script: PROBE, execArgv: ["--conditions=react-server", "--import", "tsx"] });
  });
});
