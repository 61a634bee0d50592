/** The list of published Flow APIs on the landing page (server component). */
import Link from "next/link";
import { BookOpenIcon, FileJsonIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";

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
  if (apis.length === 0) return <p className="text-sm text-muted-foreground">No API is published yet.</p>;
  return (
    <ul className="grid gap-3">
      {apis.map((a) => (
        <li key={a.key} className="rounded-xl border bg-card p-4">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">{a.name}</h3>
            <Badge variant="secondary">flow version {a.flowVersion}</Badge>
          </div>
          {a.description ? <p className="mt-1 text-sm text-muted-foreground">{a.description}</p> : null}
          <code className="mt-2 block overflow-x-auto rounded-md bg-muted px-2 py-1 font-mono text-xs">POST {a.basePath}/runs</code>
          <div className="mt-3 flex flex-wrap gap-4 text-sm">
            <Link href={a.docsPath} className="inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline">
              <BookOpenIcon aria-hidden="true" className="size-4" />
              Docs<span className="sr-only"> of {a.name}</span>
            </Link>
            <a href={`${a.basePath}/openapi.json`} className="inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline">
              <FileJsonIcon aria-hidden="true" className="size-4" />
              openapi.json<span className="sr-only"> of {a.name}</span>
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
}
