/** The list of published Flow APIs on the landing page (server component). */
export interface TPublishedApi {
  key: string;
  name: string;
  description: string | null;
  basePath: string;
  /** Path of the API's docs page (`/docs/{organization}/{environment}/{api}`). */
  docsPath: string;
  flowVersion: number;
}

export function PublishedApiList({ apis }: { apis: TPublishedApi[] }) {
  if (apis.length === 0) return <p>No API is published yet.</p>;
  return (
    <ul>
      {apis.map((a) => (
        <li key={a.key}>
          <strong>{a.name}</strong> (flow version {a.flowVersion}): <code>POST {a.basePath}/runs</code> — <a href={a.docsPath}>docs</a>,{" "}
          <a href={`${a.basePath}/openapi.json`}>openapi.json</a>
          {a.description ? <div>{a.description}</div> : null}
        </li>
      ))}
    </ul>
  );
}
