import Link from "next/link";
import { SearchXIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Main } from "@/features/shell/main";

/** 404 for pages: an unknown path, or an organization, workspace or environment that is not yours. */
export default function NotFoundPage() {
  return (
    <Main>
      <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-muted">
          <SearchXIcon aria-hidden="true" className="size-6 text-muted-foreground" />
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
        <p className="text-muted-foreground">This page does not exist, or it belongs to an organization you are not a member of.</p>
        <Button asChild variant="outline">
          <Link href="/">Home</Link>
        </Button>
      </div>
    </Main>
  );
}
