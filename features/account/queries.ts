/**
 * TanStack Query factories of the account feature (the pattern every feature follows:
 * `queryOptions` with a stable key and a fetch of a route handler; client components call
 * `useQuery(meQuery())`).
 */
import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/features/shell/fetch-json";

export interface TMe {
  user: { id: string; email: string; name: string };
  memberships: { organizationId: string; slug: string; name: string; role: "designer" | "admin" }[];
}

export const meQuery = () => queryOptions({ queryKey: ["me"], queryFn: () => fetchJson<TMe>("/api/me") });
