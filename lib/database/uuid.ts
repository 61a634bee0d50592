/** Whether `id` is a UUID: only then may it be compared with a `uuid` column (Postgres refuses a malformed one with an error). */
export function isUuid(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}
