import type { ReactNode } from "react";

export const metadata = {
  title: "Flow API service",
  description: "Publish a reusable geospatial flow as an HTTP API.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "2rem auto", maxWidth: 960, lineHeight: 1.5 }}>{children}</body>
    </html>
  );
}
