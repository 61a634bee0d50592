import type { ReactNode } from "react";

/** The page body below the header (the skip link targets `#main`). */
export function Main({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none">
      {children}
    </main>
  );
}
