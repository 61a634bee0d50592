// The restart policy of npm start's processes: as a pure decision over restart times, and
// through `supervise` with a real child process that crashes at once.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { restartDecision, supervise, type TRestartPolicy } from "./app-processes";

const MIN = 60_000;
const POLICY = { max: 5, windowMs: 10 * MIN };

describe("restartDecision", () => {
  it("restarts a process whose earlier restarts are fewer than the limit within the window", () => {
    const now = 100 * MIN;
    const d = restartDecision([now - 9 * MIN, now - 5 * MIN, now - 1 * MIN], now, POLICY, "worker", "exit code 1");
    expect(d).toEqual({ restart: true, restarts: [now - 9 * MIN, now - 5 * MIN, now - 1 * MIN, now] });
  });

  it("forgets restarts older than the window, so a process that crashes rarely is always restarted", () => {
    const now = 100 * MIN;
    // five restarts, but four of them more than 10 minutes ago
    const d = restartDecision([now - 40 * MIN, now - 30 * MIN, now - 20 * MIN, now - 11 * MIN, now - 2 * MIN], now, POLICY, "worker", "SIGKILL");
    expect(d).toEqual({ restart: true, restarts: [now - 2 * MIN, now] });
  });

  it("gives up at the sixth death within 10 minutes, saying which process, how often and how it ended", () => {
    const now = 100 * MIN;
    const five = [1, 2, 3, 4, 5].map((i) => now - i * MIN);
    const d = restartDecision(five, now, POLICY, "web server", "exit code 134");
    expect(d.restart).toBe(false);
    if (d.restart) return;
    expect(d.reason).toBe("the web server died 6 times within 10 minutes (last: exit code 134); it was restarted 5 times and is not restarted again");
  });

  it("counts a restart exactly at the window's edge as outside it", () => {
    const now = 100 * MIN;
    const five = [now - 10 * MIN, now - 4 * MIN, now - 3 * MIN, now - 2 * MIN, now - 1 * MIN];
    expect(restartDecision(five, now, POLICY, "worker", "exit code 1").restart).toBe(true);
  });
});

describe("supervise", () => {
  it("restarts a child that crashes until the policy's limit, then gives up once with the reason", async () => {
    const policy: TRestartPolicy = { max: 2, windowMs: MIN, delayMs: 10 };
    const pids: number[] = [];
    const reason = await new Promise<string>((resolve) => {
      supervise({
        what: "worker",
        policy,
        spawnChild: () => {
          const child = spawn(process.execPath, ["-e", "process.exit(7)"], { stdio: "ignore" });
          pids.push(child.pid!);
          return child;
        },
        onGiveUp: resolve,
      });
    });
    // the first start and two restarts: three distinct processes
    expect(new Set(pids).size).toBe(3);
    expect(reason).toBe("the worker died 3 times within 1 minute (last: exit code 7); it was restarted 2 times and is not restarted again");
    await new Promise((r) => setTimeout(r, 100));
    expect(pids.length).toBe(3); // nothing started after giving up
  });

  it("does not restart a child stopped on purpose", async () => {
    let starts = 0;
    let gaveUp = false;
    const s = supervise({
      what: "web server",
      policy: { max: 5, windowMs: MIN, delayMs: 10 },
      spawnChild: () => {
        starts++;
        return spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      },
      onGiveUp: () => (gaveUp = true),
    });
    const child = s.current();
    await s.stop(5_000);
    expect(child.signalCode).toBe("SIGTERM");
    await new Promise((r) => setTimeout(r, 100));
    expect(starts).toBe(1);
    expect(gaveUp).toBe(false);
  });
});
