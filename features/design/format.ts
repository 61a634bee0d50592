/** Display helpers of the design tool (times: formatTime in features/console/format.ts). */

/** "1 row", "3 rows": a count with its noun, plural by adding "s" (enough for the nouns used here). */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
