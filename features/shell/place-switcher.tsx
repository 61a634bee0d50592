"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { CheckIcon, ChevronsUpDownIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/**
 * The workspace switcher (design tool) or environment switcher (console): a menu of links to
 * the same section in another workspace/environment of the organization. `href` of each
 * place is its base path (`/design/demo/demo`); the current section is appended.
 */
export function PlaceSwitcher({
  label,
  current,
  places,
}: {
  /** "Workspace" or "Environment". */
  label: string;
  current: { slug: string; name: string; href: string };
  places: { slug: string; name: string; href: string }[];
}) {
  const pathname = usePathname();
  const section = pathname.startsWith(current.href + "/") ? (pathname.slice(current.href.length + 1).split("/")[0] ?? "") : "";
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by its text ("Workspace: Demo workspace"), not an aria-label: WCAG 2.5.3 wants the
            visible words in the name, so speech users can say what they see. The menu role says it switches. */}
        <Button variant="outline" size="sm" className="max-w-full min-w-0 sm:max-w-72">
          <span className="text-muted-foreground">{label}:</span>
          <span className="truncate font-medium">{current.name}</span>
          <ChevronsUpDownIcon aria-hidden="true" className="opacity-60" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56">
        <DropdownMenuLabel className="text-xs text-muted-foreground">{label}s</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {places.map((p) => (
          <DropdownMenuItem key={p.slug} asChild>
            <Link href={section ? `${p.href}/${section}` : p.href} aria-current={p.slug === current.slug ? "page" : undefined}>
              <CheckIcon aria-hidden="true" className={p.slug === current.slug ? "" : "invisible"} />
              <span className="truncate">{p.name}</span>
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
