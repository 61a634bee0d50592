/** The run events a webhook endpoint may subscribe to (plain data: the console's form uses it too). */
export const RUN_EVENTS = ["run.completed", "run.failed", "run.cancelled"] as const;
export type TRunEvent = (typeof RUN_EVENTS)[number];
