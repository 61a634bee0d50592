// The first `npm start` builds the app for minutes: runNextBuild (scripts/app-processes.ts) must
// pass the build's progress lines through as they come, not all at the end. A stand-in `next`
// prints a line, works for 1.5 s, prints another; the first must reach us well before the second.
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
    fs.writeFileSync(fake, `console.log("Creating an optimized production build ..."); setTimeout(() => console.log("Compiled successfully"), 1500);\n`);
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
    const seen: Record<string, number> = {};
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of ["Creating an optimized production build", "Compiled successfully"]) if (out.includes(line)) seen[line] ??= Date.now();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
    const first = seen["Creating an optimized production build"];
    const second = seen["Compiled successfully"];
    expect(first && second).toBeTruthy();
    expect(second! - first!).toBeGreaterThan(1000);
  }, 60_000);
});
