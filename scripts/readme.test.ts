/**
 * The README's claims hold in a clone: its relative links point at files of this
 * repository (nothing outside it, such as a sibling `../shared` folder), the Node version
 * it asks for is the one `package.json` `engines` declares, the test command it names is
 * the one `.ci/run` calls, and the media types it says `POST /runs` accepts are those
 * lib/http/read-json-body.ts accepts.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };

describe("README", () => {
  it("links only to files inside the repository", () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
    for (const t of targets) {
      const resolved = path.resolve(ROOT, t);
      expect(resolved.startsWith(ROOT + path.sep), t).toBe(true);
      expect(existsSync(resolved), t).toBe(true);
    }
    expect(readme).not.toMatch(/\.\.\/shared/);
  });

  it("asks for the Node version package.json declares", () => {
    const stated = /Node (\d+) or newer/.exec(readme)?.[1];
    expect(stated).toBeDefined();
    expect(pkg.engines.node).toBe(`>=${stated}`);
  });

  it("names the test command CI runs", () => {
    const ci = readFileSync(path.join(ROOT, ".ci/run"), "utf8");
    expect(readme).toMatch(/^npm test\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it("says which media types POST /runs accepts, as the code does", () => {
    const code = readFileSync(path.join(ROOT, "lib/http/read-json-body.ts"), "utf8");
    expect(code).toContain('"application/json"');
    expect(code).toContain("+json$");
    expect(readme).toContain("415 not JSON (`application/json` or an `application/*+json` type)");
  });
});
