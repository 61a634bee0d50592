/**
 * Progress of a running run, reported step by step and written one report at a time: at most
 * one write in flight, and of the reports that arrive meanwhile only the latest is written next.
 * Readers poll the run, so they are owed the current count, not every one in between; a short
 * run's steps report faster than the database takes them, and each write costs the machine CPU
 * while the run works (bench "data": a 4-step run wrote 4 UPDATEs one after the other, the last
 * ones after its process had answered).
 *
 * - `report(done, total)` never throws and never waits; a write that fails is dropped (the final
 *   state is what counts).
 * - `stop()` drops what is not written yet and resolves once the write in flight has settled; a
 *   completed run's final state sets its steps to the total anyway (lib/runs/run-state.ts).
 */
export interface TProgressReporter {
  report(stepsDone: number, stepsTotal: number): void;
  stop(): Promise<void>;
}

/** A reporter writing through `write` (e.g. `recordProgress` of one run). */
export function progressReporter(write: (stepsDone: number, stepsTotal: number) => Promise<void>): TProgressReporter {
  let next: [number, number] | null = null;
  let writing: Promise<void> | null = null;
  const drain = async () => {
    while (next) {
      const [done, total] = next;
      next = null;
      await write(done, total).catch(() => {});
    }
    writing = null;
  };
  return {
    report(stepsDone, stepsTotal) {
      next = [stepsDone, stepsTotal];
      writing ??= drain();
    },
    async stop() {
      next = null;
      await writing;
    },
  };
}
