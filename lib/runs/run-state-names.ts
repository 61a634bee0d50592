/**
 * The names of a run's states, without I/O, for modules that only describe runs (the run
 * document, OpenAPI, the UI). The transitions between them live in lib/runs/run-state.ts.
 */
export const RUN_STATES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type TRunState = (typeof RUN_STATES)[number];
export type TFinalState = "completed" | "failed" | "cancelled";

export const FINAL_STATES: ReadonlySet<TRunState> = new Set<TRunState>(["completed", "failed", "cancelled"]);
