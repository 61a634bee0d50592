import type { ReactNode } from "react";

// The docs pages keep their own plain, printable look (inline styles in the page), light only.
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div id="main" className="docs-page" style={{ margin: "2rem auto", maxWidth: 960, padding: "0 1rem", lineHeight: 1.5, background: "#fff", color: "#111" }}>
      {children}
    </div>
  );
}
