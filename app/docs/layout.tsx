import type { ReactNode } from "react";
import styles from "./docs.module.css";

// The docs pages keep their own plain, printable look (docs.module.css and inline styles in the page), light only.
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div style={{ flex: 1, background: "#fff", color: "#111" }}>
      <div id="main" className={styles.prose} style={{ margin: "0 auto", maxWidth: 960, padding: "2rem 1rem", lineHeight: 1.5 }}>
        {children}
      </div>
    </div>
  );
}
