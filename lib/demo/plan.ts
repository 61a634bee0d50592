/**
 * The demo plan's rate limit (pure, no I/O): what the README's "Rate limits" section shows and
 * what lib/demo/seed.ts gives plan `pro` for `npm start`, small enough that a 429 can be tried.
 */

/** Calls per minute and API key on the demo plan `pro`. */
export const DEMO_RATE_LIMIT_PER_MINUTE = 600;
