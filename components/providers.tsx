"use client";
/**
 * The client-side providers of the whole app, mounted once in the root layout: the theme
 * (next-themes: `class="dark"` on <html>, light/dark/system) and the ONE TanStack Query
 * client (queries are defined as `queryOptions` factories in features/<feature>/queries.ts).
 */
import { useState, type ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "next-themes";
import { Toaster } from "@/components/ui/sonner";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: (count, err) => count < 2 && !(err instanceof Error && /^4\d\d/.test(err.message)) },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster richColors closeButton />
      </QueryClientProvider>
    </ThemeProvider>
  );
}
