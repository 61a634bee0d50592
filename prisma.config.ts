// Prisma CLI configuration. The URL is only needed by CLI commands that talk to the
// database; `prisma generate` works without it (see scripts/prisma-generate.mjs).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/flowapi" },
});
