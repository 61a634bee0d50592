import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

// The landing page lists the published APIs; the design tool and console arrive with the UI issues.
export default async function Home() {
  const served = await db.environmentApi.findMany({
    include: { environment: { include: { organization: true } }, flowApi: true, release: { include: { flowVersion: true } } },
    orderBy: { flowApi: { slug: "asc" } },
  });
  return (
    <main>
      <h1>Flow API service</h1>
      <p>Published Flow APIs. Call them with an API key in the <code>X-Api-Key</code> header.</p>
      <ul>
        {served.map((s) => {
          const base = `/public/api/${s.environment.organization.slug}/${s.environment.slug}/${s.flowApi.slug}`;
          return (
            <li key={`${s.environmentId}-${s.flowApiId}`}>
              <strong>{s.flowApi.name}</strong> (flow version {s.release.flowVersion.version}): <code>POST {base}/runs</code>
              {s.flowApi.description ? <div>{s.flowApi.description}</div> : null}
            </li>
          );
        })}
      </ul>
    </main>
  );
}
