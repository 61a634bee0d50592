/**
 * `/`: what the service is, the way in for designers (design tool) and admins (console),
 * and the published APIs with their docs pages for callers. A signed-in user who is an admin of
 * no organization is not offered the console (it would only answer "Not allowed"); a visitor
 * is (it leads through sign-in).
 */
import Link from "next/link";
import { ArrowRightIcon, BookOpenIcon, FileJsonIcon, PencilRulerIcon, ServerCogIcon, WorkflowIcon } from "lucide-react";
import { db } from "@/lib/db";
import { currentUser } from "@/lib/auth/session";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { ThemeToggle } from "@/features/shell/theme-toggle";
import { UserMenu } from "@/features/shell/user-menu";
import { docsPath } from "@/features/shell/routes";
import { isAdminAnywhere } from "@/features/shell/data";
import { apiBasePath } from "@/lib/runs/scope";

export default async function LandingPage() {
  const user = await currentUser();
  const mayOpenConsole = !user || (await isAdminAnywhere(user.id));
  const served = await db.environmentApi.findMany({
    include: { environment: { include: { organization: true } }, flowApi: true, release: { include: { flowVersion: true } } },
    orderBy: { flowApi: { slug: "asc" } },
  });
  const tools = [
    {
      href: "/design",
      icon: PencilRulerIcon,
      title: "Design tool",
      text: "For designers: flows, layers and Flow APIs. Try an API on workspace data, publish it, republish a newer flow version.",
      cta: "Open the design tool",
    },
    {
      href: "/console",
      icon: ServerCogIcon,
      title: "Serving console",
      text: "For admins: environments, consumers, API keys, access grants, usage, runs and AI access.",
      cta: "Open the console",
      closed: mayOpenConsole ? null : "Only admins of an organization open the console.",
    },
    {
      href: "#apis",
      icon: BookOpenIcon,
      title: "API docs",
      text: "For callers: each published API has a docs page and an OpenAPI 3.1 document. Call it with an API key.",
      cta: "See the published APIs",
    },
  ];
  return (
    <>
      <header className="border-b">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
          <Link href="/" className="flex items-center gap-2 font-semibold">
            <WorkflowIcon aria-hidden="true" className="size-5" />
            Flow API
          </Link>
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            {user ? (
              <UserMenu user={user} />
            ) : (
              <Button asChild size="sm">
                <Link href="/sign-in">Sign in</Link>
              </Button>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10">
        <h1 className="text-3xl font-semibold tracking-tight">Flow API service</h1>
        <p className="mt-2 max-w-2xl text-muted-foreground">
          Turn a reusable geospatial flow into a published HTTP API. Callers send their own data and parameters, a worker runs the flow, and they download the
          results as GeoJSON, GeoParquet, CSV or Parquet.
        </p>
        <div className="mt-8 grid gap-4 md:grid-cols-3">
          {tools.map((t) => (
            <Card key={t.href}>
              <CardHeader>
                <t.icon aria-hidden="true" className="mb-2 size-6" />
                <CardTitle>{t.title}</CardTitle>
                <CardDescription>{t.text}</CardDescription>
              </CardHeader>
              <CardFooter className="mt-auto">
                {"closed" in t && t.closed ? (
                  <p className="text-sm text-muted-foreground">{t.closed}</p>
                ) : (
                  <Button asChild variant="outline" size="sm">
                    <Link href={t.href}>
                      {t.cta}
                      <ArrowRightIcon aria-hidden="true" />
                    </Link>
                  </Button>
                )}
              </CardFooter>
            </Card>
          ))}
        </div>
        <section id="apis" aria-labelledby="apis-title" className="mt-12 scroll-mt-8">
          <h2 id="apis-title" className="text-xl font-semibold tracking-tight">
            Published APIs
          </h2>
          <p className="mt-1 mb-4 text-sm text-muted-foreground">
            Call them with an API key in the <code className="font-mono">X-Api-Key</code> header.
          </p>
          {served.length === 0 ? (
            <p className="text-sm text-muted-foreground">No API is published yet.</p>
          ) : (
            <ul className="grid gap-3">
              {served.map((s) => {
                const path = { organization: s.environment.organization.slug, environment: s.environment.slug, api: s.flowApi.slug };
                return (
                  <li key={`${s.environmentId}-${s.flowApiId}`} className="rounded-xl border bg-card p-4">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="font-semibold">{s.flowApi.name}</h3>
                      <Badge variant="secondary">flow version {s.release.flowVersion.version}</Badge>
                    </div>
                    {s.flowApi.description ? <p className="mt-1 text-sm text-muted-foreground">{s.flowApi.description}</p> : null}
                    <code className="mt-2 block overflow-x-auto rounded-md bg-muted px-2 py-1 font-mono text-xs">POST {apiBasePath(path)}/runs</code>
                    <div className="mt-3 flex flex-wrap gap-4 text-sm">
                      <Link
                        href={docsPath(path.organization, path.environment, path.api)}
                        className="inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline"
                      >
                        <BookOpenIcon aria-hidden="true" className="size-4" />
                        Docs<span className="sr-only"> of {s.flowApi.name}</span>
                      </Link>
                      <a href={`${apiBasePath(path)}/openapi.json`} className="inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline">
                        <FileJsonIcon aria-hidden="true" className="size-4" />
                        openapi.json<span className="sr-only"> of {s.flowApi.name}</span>
                      </a>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </main>
    </>
  );
}
