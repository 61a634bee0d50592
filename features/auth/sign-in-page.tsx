/** `/sign-in`: email and password. A signed-in visitor goes straight on to `callbackUrl`. */
import Link from "next/link";
import { redirect } from "next/navigation";
import { WorkflowIcon } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { currentUser } from "@/lib/auth/session";
import { safeCallbackPath } from "@/features/shell/routes";
import { SignInForm } from "@/features/auth/sign-in-form";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).callbackUrl;
  const callbackUrl = safeCallbackPath(Array.isArray(raw) ? raw[0] : raw);
  if (await currentUser()) redirect(callbackUrl);
  return (
    <main id="main" className="flex flex-1 items-center justify-center px-4 py-16">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <Link href="/" className="mb-2 flex items-center gap-2 font-semibold">
            <WorkflowIcon aria-hidden="true" className="size-5" />
            Flow API
          </Link>
          <h1 className="text-xl font-semibold tracking-tight">Sign in</h1>
          <CardDescription>For designers and console admins. API callers use API keys instead.</CardDescription>
        </CardHeader>
        <CardContent>
          <SignInForm callbackUrl={callbackUrl} />
        </CardContent>
      </Card>
    </main>
  );
}
