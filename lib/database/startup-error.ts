/**
 * `StartupError`: a start-up failure the user can fix (a port in use, a second start in the same
 * checkout, an unreachable DATABASE_URL, a malformed DEMO_API_KEY, ...). Its message is one
 * sentence or two saying what is wrong and what to do; scripts print it without a stack and
 * exit 1. Any other error at start-up is a bug and is printed with its stack.
 */
export class StartupError extends Error {
  override name = "StartupError";
}
