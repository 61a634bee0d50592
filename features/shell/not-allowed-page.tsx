/**
 * The "not allowed" page (HTTP 403), shown by `forbidden()` when a signed-in member's role
 * does not include what they opened, e.g. a designer opening the serving console.
 */
import Link from "next/link";
import { ShieldXIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { currentUser } from "@/lib/auth/session";
import { AppHeader } from "@/features/shell/app-header";
import { Main } from "@/features/shell/main";
import { isAdminAnywhere } from "@/features/shell/data";

export default async function NotAllowedPage() {
  const user = await currentUser();
  return (
    <>
      {user ? <AppHeader user={user} showConsole={await isAdminAnywhere(user.id)} /> : null}
      <Main>
        <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
          <div className="flex size-12 items-center justify-center rounded-full bg-muted">
            <ShieldXIcon aria-hidden="true" className="size-6 text-muted-foreground" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Not allowed</h1>
          <p className="text-muted-foreground">
            Your role in this organization does not include this page. The serving console is for admins; designers use the design tool. Ask an admin of your
            organization if you need access.
          </p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link href="/design">Go to the design tool</Link>
            </Button>
            <Button asChild variant="outline">
              <Link href="/">Home</Link>
            </Button>
          </div>
        </div>
      </Main>
    </>
  );
}
