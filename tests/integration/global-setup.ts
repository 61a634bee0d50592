// Integration tests run against the app that scripts/test.ts (npm test) starts.
export default function setup(): void {
  for (const name of ["TEST_BASE_URL", "DATABASE_URL", "TEST_DEMO_API_KEY", "TEST_OTHER_API_KEY"]) {
    if (!process.env[name]) throw new Error(`${name} is not set: run the integration tests with \`npm test\`, which starts the database and the app.`);
  }
}
