/** Display helpers of the design tool. Times are shown in UTC, minute precision. */
export function formatDate(d: Date): string {
  return d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}
