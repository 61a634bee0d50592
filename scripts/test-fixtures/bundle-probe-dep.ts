/** Imported by bundle-probe.ts: a second module that finds a directory from its own location. */
import path from "node:path";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
