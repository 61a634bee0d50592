/**
 * Tests wipe their database. This guard refuses any database that is not on this machine
 * (host localhost, 127.0.0.0/8 or ::1), so a stray DATABASE_URL can never be reset.
 */
export function assertLocalDatabase(url: string): void {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error("DATABASE_URL is not a valid URL");
  }
  if (!(host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error(`Refusing to run tests against a non-local database (${host}). Tests reset the database they use.`);
  }
}
