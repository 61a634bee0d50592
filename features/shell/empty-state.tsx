import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

/** What a list shows when it has nothing yet: an icon, what belongs here, and what to do. */
export function EmptyState({ icon: Icon, title, description }: { icon: LucideIcon; title: string; description: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed px-6 py-16 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-muted">
        <Icon aria-hidden="true" className="size-6 text-muted-foreground" />
      </div>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="max-w-md text-sm text-muted-foreground">{description}</p>
    </div>
  );
}
