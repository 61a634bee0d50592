/** Display helpers of the design tool. Times are shown in UTC, minute precision. */
export function formatDate(d: Date): string {
  return d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** "1 row", "3 rows": a count with its noun, plural by adding "s" (enough for the nouns used here). */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
