"use client";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { meQuery } from "@/features/account/queries";

/** The user's organizations and roles, read through GET /api/me. */
export function Memberships() {
  const { data, isPending, error } = useQuery(meQuery());
  if (isPending) {
    return (
      <div aria-busy="true" className="grid gap-2">
        <span className="sr-only">Loading organizations…</span>
        <Skeleton className="h-6 w-full" />
        <Skeleton className="h-6 w-2/3" />
      </div>
    );
  }
  if (error) return <p className="text-sm text-destructive">Could not load your organizations: {error.message}</p>;
  if (data.memberships.length === 0) return <p className="text-sm text-muted-foreground">You are not a member of any organization yet.</p>;
  return (
    <ul className="grid gap-2">
      {data.memberships.map((m) => (
        <li key={m.organizationId} className="flex items-center justify-between gap-2 text-sm">
          <span>{m.name}</span>
          <Badge variant={m.role === "admin" ? "default" : "secondary"}>{m.role === "admin" ? "Admin" : "Designer"}</Badge>
        </li>
      ))}
    </ul>
  );
}
