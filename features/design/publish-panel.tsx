"use client";
/**
 * Publish to an environment: environment and flow version (the latest by default), what
 * changes for callers against what it serves now, and publish. Blocked, with the reason,
 * while the source flow is in the trash or deleted.
 */
import { useMemo, useState } from "react";
import { UploadIcon } from "lucide-react";
import { ZFlowVersion } from "@/lib/engine/flow-document";
import { releaseDiff, type TSectionDiff } from "@/lib/apis/release-diff";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { ConfirmButton } from "@/components/confirm-button";
import { publishAction } from "@/features/design/actions";

export interface TPublishPanelProps {
  organization: string;
  workspace: string;
  flowApiId: string;
  blockedReason: string | null;
  environments: { id: string; slug: string; name: string; serving: { flowVersion: number; flowVersionId: string } | null }[];
  versions: { id: string; version: number; definition: unknown }[];
}

export function PublishPanel(p: TPublishPanelProps) {
  const [environmentId, setEnvironmentId] = useState(p.environments.find((e) => e.slug === "production")?.id ?? p.environments[0]?.id ?? "");
  const [versionId, setVersionId] = useState(p.versions[0]?.id ?? "");
  const env = p.environments.find((e) => e.id === environmentId);
  const version = p.versions.find((v) => v.id === versionId);
  const diff = useMemo(() => {
    if (!env?.serving || !version) return null;
    const before = p.versions.find((v) => v.id === env.serving!.flowVersionId);
    if (!before) return null;
    return releaseDiff(ZFlowVersion.parse(before.definition), ZFlowVersion.parse(version.definition));
  }, [env, version, p.versions]);

  if (p.blockedReason) {
    return (
      <Alert variant="destructive" data-testid="publish-blocked">
        <AlertTitle>Publishing is blocked</AlertTitle>
        <AlertDescription>{p.blockedReason}</AlertDescription>
      </Alert>
    );
  }
  const same = env?.serving?.flowVersionId === versionId;
  return (
    <div className="grid gap-4" data-testid="publish-panel">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="publish-environment" label="Environment">
          <NativeSelect value={environmentId} onChange={(e) => setEnvironmentId(e.target.value)}>
            <SelectOptions
              options={p.environments.map((e) => ({ value: e.id, label: `${e.name} (${e.serving ? `serves v${e.serving.flowVersion}` : "not published"})` }))}
            />
          </NativeSelect>
        </FormField>
        <FormField id="publish-version" label="Flow version">
          <NativeSelect value={versionId} onChange={(e) => setVersionId(e.target.value)}>
            <SelectOptions options={p.versions.map((v, i) => ({ value: v.id, label: `Version ${v.version}${i === 0 ? " (latest)" : ""}` }))} />
          </NativeSelect>
        </FormField>
      </div>
      <div className="rounded-md border p-3 text-sm" data-testid="release-diff" aria-live="polite">
        {!env?.serving ? (
          <p>
            First release in {env?.name}: callers will get version {version?.version} as it is.
          </p>
        ) : same ? (
          <p>
            {env.name} already serves version {version?.version}. Publishing again changes nothing for callers.
          </p>
        ) : diff ? (
          <div className="grid gap-2">
            <p className="font-medium">
              What changes for callers from version {env.serving.flowVersion} to version {version?.version}:
            </p>
            {diff.same ? <p>Nothing callers send or receive changes{diff.stepsChanged ? "; the steps (how results are computed) do" : ""}.</p> : null}
            <DiffSection title="Inputs" d={diff.inputs} />
            <DiffSection title="Parameters" d={diff.parameters} />
            <DiffSection title="Results" d={diff.results} />
            {!diff.same && diff.stepsChanged ? <p className="text-muted-foreground">The steps change too.</p> : null}
          </div>
        ) : (
          <p>
            {env.name} serves version {env.serving.flowVersion} of the API&apos;s previous source flow; callers will get version {version?.version} of the new
            one.
          </p>
        )}
      </div>
      <div>
        <ConfirmButton
          variant="default"
          label={
            <>
              <UploadIcon aria-hidden="true" /> Publish
            </>
          }
          title={`Publish version ${version?.version} to ${env?.name}?`}
          description={
            <p>
              The release pins exactly flow version {version?.version}. Callers of {env?.name} get it on their next call; saving newer flow versions later
              changes nothing until you publish again.
            </p>
          }
          confirmLabel="Publish"
          disabled={!env || !version}
          run={() => publishAction({ organization: p.organization, workspace: p.workspace, flowApiId: p.flowApiId, environmentId, flowVersionId: versionId })}
          success={`Published version ${version?.version} to ${env?.name}.`}
        />
      </div>
    </div>
  );
}

function DiffSection({ title, d }: { title: string; d: TSectionDiff }) {
  const rows = (["added", "removed", "changed"] as const).flatMap((what) => d[what].map((e) => ({ ...e, what })));
  if (rows.length === 0) return null;
  return (
    <div>
      <p className="font-medium">{title}</p>
      <ul className="ml-4 list-disc">
        {rows.map((r) => (
          <li key={`${r.what}-${r.name}`}>
            <span className="font-mono">{r.name}</span> {r.what}
            {r.detail ? <span className="text-muted-foreground"> ({r.detail})</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
