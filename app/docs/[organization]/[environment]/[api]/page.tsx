import { InlineMarkdown } from "@/components/inline-markdown";
import { Fragment, type CSSProperties, type ReactNode } from "react";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ZApiPath } from "@/lib/http/public-route";
import { publishedOpenApi, readableLayers } from "@/lib/openapi/published-api";
import { docsModel } from "@/lib/openapi/docs-model";
import { describeGeometry, layersFitting, type TGeometryDeclaration } from "@/lib/flows/input-geometry";
import type { TInput } from "@/lib/flows/definition";
import { publicOrigin } from "@/lib/http/request-origin";
import { env } from "@/lib/env";
import { apiBasePath, type TApiPath } from "@/lib/runs/scope";
import { ogcBasePath } from "@/lib/ogc/conformance";

export const dynamic = "force-dynamic";

type TInputKind = TInput["kind"];

type TParams = { params: Promise<TApiPath> };

const table: CSSProperties = { borderCollapse: "collapse", width: "100%", margin: "0.5rem 0 1.5rem" };
const cell: CSSProperties = { border: "1px solid #ccc", padding: "0.3rem 0.5rem", textAlign: "left", verticalAlign: "top" };
const pre: CSSProperties = { background: "#f4f4f4", padding: "0.75rem", overflowX: "auto", fontSize: "0.85rem" };
const EXAMPLES = [
  ["curl", "curl"],
  ["python", "Python (requests)"],
  ["javascript", "JavaScript (fetch)"],
] as const;

function Table({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  return (
    <table style={table}>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} style={cell}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((c, j) => (
              <td key={j} style={cell}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export async function generateMetadata({ params }: TParams) {
  const p = await params;
  return { title: `${p.api} - API docs` };
}

// The docs page of one published API, rendered from its OpenAPI document (public, like openapi.json).
export default async function ApiDocsPage({ params }: TParams) {
  const path = ZApiPath.safeParse(await params);
  if (!path.success) notFound();
  const layers = await readableLayers(path.data);
  const { origin } = publicOrigin(await headers(), "http://localhost", env().PUBLIC_BASE_URL);
  const doc = await publishedOpenApi(path.data, origin, layers);
  if (!doc) notFound();
  const m = docsModel(doc, "YOUR_API_KEY", layers);
  const openapiHref = `${apiBasePath(path.data)}/openapi.json`;
  const ogcBase = `${origin}${ogcBasePath(path.data)}`;
  const ogcProcess = `${ogcBase}/processes/${path.data.api}`;

  return (
    <main>
      <p>
        <a href="/">All APIs</a>
      </p>
      <h1>{m.title}</h1>
      <p style={{ whiteSpace: "pre-line" }}>
        <InlineMarkdown text={m.description} />
      </p>
      <p>
        Base URL: <code>{m.baseUrl}</code>
        <br />
        Flow version: {m.version} · OpenAPI 3.1: <a href={openapiHref}>openapi.json</a>
        <br />
        Authentication: send your API key in the <code>X-Api-Key</code> header.
      </p>

      <h2 id="inputs">Inputs</h2>
      <Table
        head={["Input", "Required", "Accepted forms", "Description"]}
        rows={m.inputs.map((i) => [
          <code key="n">{i.name}</code>,
          i.required ? "yes" : "no (null)",
          i.forms.map((f) => `{"${f}": …}`).join(" or "),
          i.geometry && i.geometry !== "any" ? `${i.description} (${describeGeometry(i.geometry as TGeometryDeclaration)} only)`.trim() : i.description,
        ])}
      />

      {m.inputs.some((i) => i.forms.includes("href")) && (
        <p>
          A layer or table input may also be a file at a URL: <code>{`{"href": "https://…", "type": "application/geo+json"}`}</code> (<code>type</code>{" "}
          optional: the server&apos;s <code>Content-Type</code> or the URL&apos;s extension usually tells the format). GeoJSON, GeoJSON Text Sequences, CSV with
          longitude/latitude columns (a table: CSV without them) and GeoParquet are read, with the checks and limits of a layer upload. The service fetches the
          file when the run starts (https and public addresses only); a fetch that fails fails the run with <code>invalid_input</code> naming the input and the
          HTTP status, for example <code>{"Input `places`: GET https://… answered 404 Not Found."}</code> The URL and the file are removed when the run ends.
        </p>
      )}

      {m.inputs
        .filter((i) => i.columns.length > 0)
        .map((i) => (
          <section key={i.name}>
            <h3 id={`columns-${i.name}`}>
              {i.kind === "layer" ? "Properties" : "Columns"} of <code>{i.name}</code> {i.kind === "layer" ? "features" : "rows"}
            </h3>
            <p>
              {i.kind === "layer" ? (
                <>
                  Every feature of <code>{`{"geojson": ...}`}</code> is checked before the run: a faulty property is answered with 422 naming it (for example{" "}
                  <code>{`/inputs/${i.name}/geojson/features/0/properties/${i.columns[0]!.name}`}</code>). Numbers must be JSON numbers, not text. Other
                  properties are kept as sent. A layer given by <code>layer_id</code> is not checked.
                </>
              ) : (
                <>
                  Every row of <code>{`{"rows": [...]}`}</code> is checked before the run: a faulty cell is answered with 422 naming it (for example{" "}
                  <code>{`/inputs/${i.name}/rows/0/${i.columns[0]!.name}`}</code>). Numbers must be JSON numbers, not text. Other columns are kept as sent.
                </>
              )}
            </p>
            <Table
              head={["Column", "Type", "Required", "Range", "Description"]}
              rows={i.columns.map((c) => [
                <code key="n">{c.name}</code>,
                c.type === "any" ? "text, number or boolean" : c.type,
                c.required ? "yes" : "no (null)",
                c.range,
                c.description,
              ])}
            />
          </section>
        ))}

      <h3 id="layers">Layers you can use</h3>
      {m.layers.length === 0 ? (
        <p>This environment may read no layers; send your own data (geojson, rows, area or href).</p>
      ) : (
        <>
          <p>
            The layers this environment may read, for <code>{`{"layer_id": ...}`}</code>. A layer must fit the input: a table for a table input, features of the
            declared geometry for a layer input. Any other id is answered with 422 listing the ids that fit. An admin of the organization makes more layers
            readable in the console.
          </p>
          <Table
            head={["layer_id", "Name", "Kind", "Geometry", "Items", "Fits inputs"]}
            rows={m.layers.map((l) => [
              <code key="id">{l.id}</code>,
              l.name,
              l.kind === "table" ? "table" : "features",
              l.kind === "table" ? "—" : l.geometryTypes.length ? l.geometryTypes.join(", ") : "not recorded",
              l.itemCount.toLocaleString("en-US"),
              m.inputs
                .filter(
                  (i) =>
                    layersFitting([l], { name: i.name, kind: (i.kind ?? "layer") as TInputKind, geometry: i.geometry as TGeometryDeclaration | undefined })
                      .length > 0,
                )
                .map((i) => i.name)
                .join(", ") || "none",
            ])}
          />
        </>
      )}

      <h2 id="parameters">Parameters</h2>
      {m.parameters.length === 0 ? (
        <p>None.</p>
      ) : (
        <Table
          head={["Parameter", "Type", "Required", "Default", "Range / values", "Description"]}
          rows={m.parameters.map((p) => [<code key="n">{p.name}</code>, p.type, p.required ? "yes" : "no", p.default, p.range, p.description])}
        />
      )}
      <p>
        Optional body fields: <code>formats</code> (file format per result key), <code>wait_seconds</code> (0 to 60) and <code>subscriber</code> (callbacks for
        this run, see <a href="#webhooks">Webhooks and callbacks</a>).
      </p>

      <h2 id="results">Results</h2>
      <Table
        head={["Result", "Kind", "Formats (first is default)", "Media types", "Download"]}
        rows={m.results.map((r) => [
          <code key="k">{r.key}</code>,
          r.kind,
          r.formats.join(", "),
          r.mediaTypes.join(", "),
          <code key="p">GET {r.path}?format=…</code>,
        ])}
      />
      {m.results.map((r) => (
        <section key={r.key}>
          <h3 id={`result-${r.key}`}>
            {r.kind === "layer" ? "Properties" : "Columns"} of <code>{r.key}</code>
          </h3>
          {r.columns.length > 0 && (
            <Table head={["Column", "Type", "Parquet type"]} rows={r.columns.map((c) => [<code key="n">{c.name}</code>, c.type, c.parquetType])} />
          )}
          <p>
            {r.columns.length === 0 && !r.moreColumns
              ? "No columns."
              : r.columns.length > 0
                ? `These ${r.columns.length} columns, in this order, on every run, also when the result is empty${r.moreColumns ? "; then the further columns of the input data" : ""}.`
                : "The columns of the input data."}{" "}
            Columns of type <em>any</em> come from data the flow cannot type (a layer&apos;s properties, caller GeoJSON): in Parquet their type follows the
            run&apos;s values (integers INT64, other numbers DOUBLE, text or mixed values UTF8).
          </p>
        </section>
      ))}

      <h2 id="endpoints">Endpoints and status codes</h2>
      {m.operations.map((o) => (
        <section key={`${o.method} ${o.path}`}>
          <h3>
            <code>
              {o.method} {o.path}
            </code>{" "}
            — {o.summary}
          </h3>
          <p>
            <InlineMarkdown text={o.description} />
          </p>
          <Table head={["Status", "Meaning"]} rows={o.responses.map((r) => [r.status, <InlineMarkdown key="d" text={r.description} />])} />
        </section>
      ))}

      <h2 id="errors">Errors</h2>
      <p>
        Every error is an RFC 9457 problem (<code>application/problem+json</code>) with <code>type</code>, <code>title</code>, <code>status</code>,{" "}
        <code>detail</code>, <code>instance</code> and <code>code</code>; a 422 adds <code>errors</code>, one <code>{"{field, code, message}"}</code> per faulty
        field, <code>field</code> being a JSON Pointer into the request.
      </p>
      <Table
        head={["code", "Status and meaning"]}
        rows={m.errorCodes.map((e) => [<code key="c">{e.code}</code>, <InlineMarkdown key="d" text={e.description} />])}
      />
      <p>
        Rate limit: every answer carries <code>RateLimit-Policy</code> and <code>RateLimit</code> (IETF draft); over the quota the answer is 429 with{" "}
        <code>Retry-After</code>.
      </p>

      <h2 id="ogc">As an OGC API - Processes process</h2>
      <p>
        GIS clients that speak OGC API - Processes (QGIS plugins, OWSLib, FME, ArcGIS) reach this API as process <code>{path.data.api}</code> at{" "}
        <code>{ogcBase}</code>, with the same key in <code>X-Api-Key</code>, the same access, limits and metering. Run it with{" "}
        <code>{`POST ${ogcProcess}/execution`}</code> and <code>{'{"inputs": {...}}'}</code> (each input and parameter by its name): synchronous by default,
        asynchronous with <code>Prefer: respond-async</code>; follow the job at <code>{`${ogcBase}/jobs/{jobId}`}</code>, read its results at{" "}
        <code>.../results</code>, dismiss it with <code>DELETE</code>. The process description is at <code>{ogcProcess}</code>.
      </p>

      <h2 id="webhooks">Webhooks and callbacks</h2>
      <p>
        Instead of polling a run, you can be told when it ends. Two ways, both only to <code>https</code> URLs on public addresses (unless the
        environment&apos;s administrator allowed a private host), with a 10 s time limit per call; redirects to private addresses are not followed.
      </p>
      <ul>
        <li>
          <strong>Webhooks</strong>, registered for your consumer by the administrator in the console: the events <code>run.completed</code>,{" "}
          <code>run.failed</code> and <code>run.cancelled</code> of every run of your key, as <code>POST</code> with the body{" "}
          <code>{'{"type": "run.completed", "timestamp": "…", "data": <run document>}'}</code>, signed by Standard Webhooks (headers <code>webhook-id</code>,{" "}
          <code>webhook-timestamp</code>, <code>webhook-signature</code>; verify them with the secret shown when the webhook was added, for example with the{" "}
          <code>standardwebhooks</code> library). Any 2xx answer counts as delivered; otherwise the call is retried with backoff for about a day, with the same{" "}
          <code>webhook-id</code>. A webhook whose every delivery failed for a day is disabled.
        </li>
        <li>
          <strong>
            <code>subscriber</code>
          </strong>{" "}
          in the request body, for this run only (as in OGC API - Processes): <code>successUri</code> receives the run document when the run completes,{" "}
          <code>failedUri</code> when it fails or is cancelled, <code>inProgressUri</code> once when it starts. These calls are not signed (there is no secret);
          they carry <code>webhook-id</code> and <code>webhook-timestamp</code>. A URI that may not be called is refused with 422 naming it (
          <code>/subscriber/successUri</code>).
        </li>
      </ul>

      <h2 id="examples">Examples</h2>
      {/* Long lines scroll sideways: each block takes keyboard focus, so arrow keys can scroll it (WCAG 2.1.1). */}
      {EXAMPLES.map(([language, title]) => (
        <Fragment key={language}>
          <h3 id={`example-${language}`}>{title}</h3>
          <pre style={pre} tabIndex={0} role="region" aria-labelledby={`example-${language}`}>
            {m.examples[language]}
          </pre>
        </Fragment>
      ))}
    </main>
  );
}
