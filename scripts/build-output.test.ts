// The first `npm start` builds the app for minutes: runNextBuild (scripts/app-processes.ts) must
// pass the build's progress lines through as they come, not all at the end. A stand-in `next`
// prints a line and goes on only once the test has read that line (it then creates a file),
// so a build whose output were held back until its end would never finish (it gives up).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("runNextBuild", () => {
  it("streams the build's output while it runs", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-next-"));
    const fake = path.join(dir, "next.mjs");
    const go = path.join(dir, "go");
    fs.writeFileSync(
      fake,
      `import fs from "node:fs";
console.log("Creating an optimized production build ...");
const until = Date.now() + 30_000;
const t = setInterval(() => {
  if (fs.existsSync(${JSON.stringify(go)})) console.log("Compiled successfully");
  else if (Date.now() < until) return;
  clearInterval(t);
}, 10);
`,
    );
    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "-e",
        `import("./scripts/app-processes.ts").then((m) => m.runNextBuild(process.env, ${JSON.stringify(fake)}))`,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    const seen: Record<string, boolean> = {};
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of ["Creating an optimized production build", "Compiled successfully"]) if (out.includes(line)) seen[line] = true;
      if (seen["Creating an optimized production build"] && !fs.existsSync(go)) fs.writeFileSync(go, "");
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
    // The second line is printed only after the test has read the first.
    expect(seen).toEqual({ "Creating an optimized production build": true, "Compiled successfully": true });
  }, 60_000);
});
