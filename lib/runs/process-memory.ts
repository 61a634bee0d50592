/**
 * Memory settings of the worker's processes that must be in place before a process starts.
 *
 * `MALLOC_MMAP_THRESHOLD_` (glibc): allocations from 128 KiB up are mapped on their own and
 * returned to the OS when freed. By default glibc raises that threshold each time such a block
 * is freed (up to 32 MiB), after which the ~1 MiB result-file chunks, IPC messages and
 * compression buffers come from the main heap, which it rarely gives back: measured after six
 * nearby-cities runs (5,000 places, 30 km), the worker process held 72 MB in that heap and went
 * from 173 to 217-243 MB resident; with the fixed threshold it went to 194 MB, and its run
 * processes rested at 134-139 MB instead of 153-159 MB. Other C libraries ignore the variable.
 * A value already set in the environment wins.
 *
 * `WORKER_NODE_FLAGS`: the worker's own young generation is small (4 MB semi-spaces): it only
 * relays chunks and talks to Postgres, so its short-lived garbage is small and frequent
 * scavenges cost little; its peak went from 243 to 225 MB over the same runs.
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "131072" };

/** `env` with `MALLOC_ENV` added where `env` does not set those variables itself. */
export function withMallocEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...MALLOC_ENV, ...env };
}

/** Node flags of the worker process (see the module doc). */
export const WORKER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4"];
