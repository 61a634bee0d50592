/**
 * An entry bundled by scripts/build-processes.test.ts: prints, as one JSON line, where this
 * module and a module it imports (which finds the project root from its own directory) think
 * they are.
 */
import { PROJECT_ROOT } from "./bundle-probe-dep";

console.log(JSON.stringify({ filename: import.meta.filename, url: import.meta.url, projectRoot: PROJECT_ROOT }));
