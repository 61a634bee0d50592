import { db } from "@/lib/db";
import { PublishedApiList } from "@/components/published-api-list";

export const dynamic = "force-dynamic";

// The landing page lists the published APIs; the design tool and console arrive with the UI issues.
export default async function Home() {
  const served = await db.environmentApi.findMany({
    include: { environment: { include: { organization: true } }, flowApi: true, release: { include: { flowVersion: true } } },
    orderBy: { flowApi: { slug: "asc" } },
  });
  const apis = served.map((s) => ({
    key: `${s.environmentId}-${s.flowApiId}`,
    name: s.flowApi.name,
    description: s.flowApi.description,
    basePath: `/public/api/${s.environment.organization.slug}/${s.environment.slug}/${s.flowApi.slug}`,
    docsPath: `/docs/${s.environment.organization.slug}/${s.environment.slug}/${s.flowApi.slug}`,
    flowVersion: s.release.flowVersion.version,
  }));
  return (
    <main>
      <h1>Flow API service</h1>
      <p>
        Published Flow APIs. Call them with an API key in the <code>X-Api-Key</code> header.
      </p>
      <PublishedApiList apis={apis} />
    </main>
  );
}
