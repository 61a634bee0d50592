/**
 * `/design/{organization}/{workspace}/apis/{apiId}`: one Flow API: status per environment,
 * source flow, publish, the layers each environment cannot read yet, Try it, recent Try-it
 * runs, unpublish, delete, and choosing another source when its flow is gone.
 */
import Link from "next/link";
import { ExternalLinkIcon } from "lucide-react";
import { orNotFound, pageWorkspace } from "@/lib/auth/page-guard";
import { listTryRuns } from "@/lib/apis/list-try-runs";
import { Badge } from "@/components/ui/badge";
import { TitledCard } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { PageHeader } from "@/features/shell/page-header";
import { publicBaseUrl } from "@/features/console/data";
import { consolePath, designPath, docsPath } from "@/features/shell/routes";
import { formatTime } from "@/features/console/format";
import { flowApiOf, layersOf, listFlowChoices } from "@/features/design/data";
import { designTitle } from "@/features/shell/page-title";
import { PublishPanel } from "@/features/design/publish-panel";
import { TryItPanel } from "@/features/design/try-it-panel";
import { RecentTryRuns } from "@/features/design/recent-try-runs";
import { ChooseSourceForm, DeleteApiButton, UnpublishButton } from "@/features/design/api-actions";
import { unreadableIn } from "@/features/design/try-it-layers";
import { ZFlowVersion } from "@/lib/flows/definition";
import type { TDesignParams } from "@/features/design/design-layout";

type TApiParams = TDesignParams & { apiId: string };

export async function generateMetadata({ params }: { params: Promise<TApiParams> }) {
  const p = await params;
  return designTitle(p, "apis", async (scope) => (await flowApiOf(scope.organizationId, scope.workspace.id, p.apiId)).name);
}

/** Layers listed before "and N more" in "Layers in each environment". */
const LAYERS_SHOWN = 5;

/**
 * The layers an environment cannot read yet, wrapped: the first few, then the others behind
 * "and N more" (a disclosure), so a workspace with many layers keeps the table narrow.
 */
function UnreadableLayers({ layers }: { layers: readonly { id: string; name: string }[] }) {
  const names = (list: readonly { id: string; name: string }[]) =>
    list.map((l, i) => (
      <span key={l.id}>
        {i > 0 ? ", " : ""}
        {l.name} (<span className="font-mono wrap-break-word">{l.id}</span>)
      </span>
    ));
  const rest = layers.slice(LAYERS_SHOWN);
  return (
    <>
      <p>{names(layers.slice(0, LAYERS_SHOWN))}</p>
      {rest.length > 0 ? (
        <details className="mt-1">
          <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground underline underline-offset-4 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50">
            and {rest.length} more
          </summary>
          <p className="mt-1">{names(rest)}</p>
        </details>
      ) : null}
    </>
  );
}

export default async function ApiPage({ params }: { params: Promise<TApiParams> }) {
  const p = await params;
  const scope = await pageWorkspace(`${designPath(p.organization, p.workspace, "apis")}/${p.apiId}`, p);
  const org = { organizationId: scope.organizationId, workspaceId: scope.workspace.id };
  const api = await orNotFound(flowApiOf(org.organizationId, org.workspaceId, p.apiId));
  const needsSource = api.source.label === "Needs a source";
  const [runs, layers, baseUrl, flows] = await Promise.all([
    listTryRuns(scope.designer, api.id),
    layersOf(scope.workspace.id),
    publicBaseUrl(),
    needsSource ? listFlowChoices(scope.designer) : Promise.resolve([]),
  ]);
  const apiRef = { organization: scope.organizationSlug, workspace: scope.workspace.slug, flowApiId: api.id, apiName: api.name };
  const servedIn = api.serving.filter((s) => s.release).map((s) => s.environment);
  const flowsBase = designPath(scope.organizationSlug, scope.workspace.slug, "flows");
  const tryVersion = api.latestVersion ?? api.selectedVersion;
  const tryDefinition = api.versions.find((v) => v.id === tryVersion?.id)?.definition;
  const servingEnv = api.serving.find((s) => s.release)?.environment.slug ?? "production";
  const tryFlow = tryDefinition ? ZFlowVersion.safeParse(tryDefinition) : null;
  const tryInputs = tryFlow?.success ? tryFlow.data.inputs : [];
  // The console answers "Not allowed" to a designer: only admins get links into it.
  const isAdmin = scope.role === "admin";
  return (
    <>
      <PageHeader
        title={api.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{api.slug}</span>
            <Badge variant="outline">Flow API</Badge>
            {api.status === "published" ? <Badge variant="success">Published</Badge> : <Badge variant="secondary">Draft</Badge>}
            {api.source.label ? (
              <Badge variant="warning" data-testid="source-label">
                {api.source.label}
              </Badge>
            ) : null}
            {api.availableVersion ? (
              <Badge variant="default" data-testid="version-available">
                Version {api.availableVersion.version} available
              </Badge>
            ) : null}
          </span>
        }
        actions={
          <DeleteApiButton {...apiRef} servedIn={servedIn.map((e) => e.name)} apisHref={designPath(scope.organizationSlug, scope.workspace.slug, "apis")} />
        }
      />
      <div className="grid gap-6">
        <div className="grid gap-6 lg:grid-cols-[1fr_2fr]">
          <TitledCard title="Source flow" description="The flow this API publishes, and its latest version." contentClassName="grid gap-2 text-sm">
            {api.flow && api.flow.state !== "deleted" ? (
              <p>
                <Link className="font-medium underline underline-offset-4" href={`${flowsBase}/${api.flow.id}`}>
                  {api.flow.name}
                </Link>{" "}
                {api.flow.state === "trashed" ? <Badge variant="warning">In trash</Badge> : null}
              </p>
            ) : (
              <p>The source flow was deleted permanently.</p>
            )}
            <p data-testid="latest-version">Latest version: {api.latestVersion ? `v${api.latestVersion.version}` : "none"}</p>
            {api.source.publishBlockedReason ? <p className="text-muted-foreground">{api.source.publishBlockedReason}</p> : null}
            {needsSource ? <ChooseSourceForm {...apiRef} flows={flows} /> : null}
          </TitledCard>
          <TitledCard
            title="Status per environment"
            description="What callers get in each environment: the release keeps exactly the flow version that was published."
          >
            <Table aria-label="Status per environment">
              <TableHeaderRow columns={["Environment", "Status", "Docs"]} />
              <TableBody>
                {api.serving.map((s) => (
                  <TableRow key={s.environment.id} data-testid={`status-${s.environment.slug}`}>
                    <TableCell className="font-medium">{s.environment.name}</TableCell>
                    <TableCell>
                      {s.release ? (
                        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                          <span className="whitespace-normal">
                            Published: flow version {s.release.flowVersion} (release {s.release.number}), {formatTime(s.release.publishedAt)}
                          </span>
                          <UnpublishButton
                            {...apiRef}
                            environment={s.environment}
                            flowVersion={s.release.flowVersion}
                            otherEnvironments={servedIn.filter((e) => e.id !== s.environment.id).length}
                          />
                        </div>
                      ) : (
                        <span className="text-muted-foreground">Draft (not published)</span>
                      )}
                    </TableCell>
                    <TableCell>
                      {s.release ? (
                        <Link
                          className="inline-flex items-center gap-1 underline underline-offset-4"
                          href={docsPath(scope.organizationSlug, s.environment.slug, api.slug)}
                        >
                          Public docs <ExternalLinkIcon aria-hidden="true" className="size-3" />
                        </Link>
                      ) : (
                        "—"
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TitledCard>
        </div>

        <TitledCard title="Publish" description="Publishing pins the chosen flow version in an environment.">
          <PublishPanel
            organization={scope.organizationSlug}
            workspace={scope.workspace.slug}
            flowApiId={api.id}
            blockedReason={api.source.publishBlockedReason}
            environments={api.serving.map((s) => ({
              ...s.environment,
              serving: s.release ? { flowVersion: s.release.flowVersion, flowVersionId: s.release.flowVersionId } : null,
            }))}
            versions={api.versions.map((v) => ({ id: v.id, version: v.version, definition: v.definition }))}
          />
        </TitledCard>

        {tryInputs.some((i) => i.kind !== "area") ? (
          <TitledCard
            title="Layers in each environment"
            description="Try it reads every layer of this workspace; a published call reads only the layers its environment may read, and answers 422 for any other. An admin of the organization changes that in the console: the environment's APIs page, Readable layers."
          >
            <Table aria-label="Layers each environment cannot read yet">
              <TableHeaderRow columns={["Environment", "Layers for this API it cannot read yet", "Who can change it"]} />
              <TableBody>
                {api.serving.map((s) => {
                  const missing = unreadableIn(layers, tryInputs, s.environment.slug);
                  return (
                    <TableRow key={s.environment.id} data-testid={`unreadable-${s.environment.slug}`}>
                      <TableCell className="font-medium">{s.environment.name}</TableCell>
                      <TableCell className="min-w-64 whitespace-normal">
                        {missing.length === 0 ? (
                          <span className="text-muted-foreground">None: it can read every layer that fits</span>
                        ) : (
                          <UnreadableLayers layers={missing} />
                        )}
                      </TableCell>
                      <TableCell>
                        {isAdmin ? (
                          <Link className="underline underline-offset-4" href={consolePath(scope.organizationSlug, s.environment.slug, "apis")}>
                            An admin, in the console<span className="sr-only">: readable layers of {s.environment.name}</span>
                          </Link>
                        ) : (
                          "An admin of the organization, in the console"
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TitledCard>
        ) : null}

        <TitledCard
          title="Try it"
          description={`Run flow version ${tryVersion?.version ?? ""} now, as you, on this workspace's data: the same request checks as a published call.`}
        >
          {tryVersion && tryDefinition ? (
            <TryItPanel
              organization={scope.organizationSlug}
              workspace={scope.workspace.slug}
              flowApiId={api.id}
              apiSlug={api.slug}
              flowVersionId={tryVersion.id}
              flowVersion={tryVersion.version}
              definition={tryDefinition}
              layers={layers}
              curlEnvironment={servingEnv}
              readableLayersHref={isAdmin ? consolePath(scope.organizationSlug, servingEnv, "apis") : null}
              publicBaseUrl={baseUrl}
            />
          ) : (
            <p className="text-sm text-muted-foreground">This API has no flow version to try.</p>
          )}
        </TitledCard>

        <TitledCard title="Your recent Try-it runs">
          <RecentTryRuns organization={scope.organizationSlug} workspace={scope.workspace.slug} runs={runs} />
        </TitledCard>
      </div>
    </>
  );
}
