/**
 * The header of every signed-in page: the product mark, the organization, the workspace or
 * environment switcher, the tool links (Design; Console for admins), the theme and the user
 * menu; below it, the tool's section tabs.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { WorkflowIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { ThemeToggle } from "@/features/shell/theme-toggle";
import { UserMenu } from "@/features/shell/user-menu";

export function AppHeader({
  user,
  tool,
  organizationName,
  switcher,
  nav,
  showConsole,
}: {
  user: { name: string; email: string };
  tool?: "design" | "console";
  organizationName?: string;
  switcher?: ReactNode;
  nav?: ReactNode;
  showConsole: boolean;
}) {
  const toolLink = (href: string, label: string, active: boolean) => (
    <Link
      href={href}
      aria-current={active ? "true" : undefined}
      className={cn(
        "rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50",
        active ? "text-foreground" : "text-muted-foreground",
      )}
    >
      {label}
    </Link>
  );
  return (
    <header className="border-b bg-background">
      {/* Wraps instead of overflowing: at phone width (390 px) the switcher moves to a second line
          and the user menu stays on screen. */}
      <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2">
        <Link href="/" className="flex items-center gap-2 rounded-md font-semibold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          <WorkflowIcon aria-hidden="true" className="size-5" />
          <span className="sr-only sm:not-sr-only">Flow API</span>
        </Link>
        {organizationName ? (
          <>
            <span aria-hidden="true" className="text-muted-foreground">
              /
            </span>
            <span className="truncate text-sm font-medium" title="Organization">
              <span className="sr-only">Organization: </span>
              {organizationName}
            </span>
          </>
        ) : null}
        {switcher ? <div className="min-w-0 sm:ml-1">{switcher}</div> : null}
        <div className="ml-auto flex items-center gap-1">
          <nav aria-label="Tools" className="mr-1 flex items-center gap-1">
            {toolLink("/design", "Design", tool === "design")}
            {showConsole ? toolLink("/console", "Console", tool === "console") : null}
          </nav>
          <ThemeToggle />
          <UserMenu user={user} />
        </div>
      </div>
      {nav ? <div className="mx-auto max-w-6xl px-4">{nav}</div> : null}
    </header>
  );
}
