/**
 * How many rows (or features) of each step a preview of a flow document keeps
 * (lib/runs/preview-run.ts): its files hold the first `PREVIEW_ROWS`, its count is the full one.
 * Shared by the worker (which caps the files) and the design tool (which says so).
 */
export const PREVIEW_ROWS = 100;
