"use client";
import { useState } from "react";
import { TitledCard } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { mcpClientConfigs } from "@/lib/mcp/client-config";
import { CopyButton } from "@/features/console/copy-button";

export interface TConnectConsumer {
  id: string;
  name: string;
  keys: { id: string; name: string; prefix: string }[];
  /** The Flow API tools its keys see (the server's own tools, `SERVER_TOOLS`, come with them). */
  tools: { name: string; title: string }[];
  planAllows: boolean;
}

/** The tools of the MCP server itself (lib/mcp/server.ts), beside one per Flow API. */
const SERVER_TOOLS = [
  { name: "run_status", title: "Run status" },
  { name: "run_result", title: "Run result" },
  { name: "run_cancel", title: "Cancel a run" },
  { name: "list_layers", title: "Readable layers" },
];

/**
 * "Connect an AI client", two ways: first by signing in (OAuth: the client needs only the
 * MCP address; a member chooses the consumer when allowing it, lib/oauth), then with an API
 * key: ready-to-paste configuration per client (lib/mcp/client-config.ts, the same text the
 * README shows) for a consumer and one of its keys. Secrets are never shown again, so a chosen
 * key appears as its prefix plus a placeholder to complete; and the tools that consumer sees.
 */
export function ConnectAiClient({ url, serverName, consumers }: { url: string; serverName: string; consumers: TConnectConsumer[] }) {
  const [consumerId, setConsumerId] = useState(consumers[0]?.id ?? "");
  const consumer = consumers.find((c) => c.id === consumerId);
  const [keyId, setKeyId] = useState("");
  const key = consumer?.keys.find((k) => k.id === keyId);
  const apiKey = key ? `${key.prefix}<rest of the key>` : undefined;
  const configs = mcpClientConfigs({ url, name: serverName, apiKey });
  return (
    <TitledCard
      title="Connect an AI client"
      description="By signing in (OAuth), for clients that support it, or with a consumer's API key sent with every request."
      contentClassName="grid gap-6"
    >
      <section aria-labelledby="connect-oauth" className="grid gap-2">
        <h3 id="connect-oauth" className="font-medium">
          By signing in (OAuth)
        </h3>
        <p className="text-sm text-muted-foreground">
          Add this address as a remote MCP server (claude.ai and ChatGPT connectors, Claude Code, VS Code, Cursor and other clients with OAuth). The client
          opens a sign-in page where a member of the organization chooses the consumer it acts as. Nothing else to paste.
        </p>
        <Label htmlFor="mcp-url">MCP address (Streamable HTTP)</Label>
        <div className="flex gap-2">
          <Input id="mcp-url" readOnly value={url} className="font-mono text-xs" />
          <CopyButton text={url} label="Copy address" />
        </div>
      </section>
      <h3 className="border-t pt-6 font-medium">With an API key</h3>
      <div className="flex flex-wrap gap-4">
        <FormField id="connect-consumer" label="Consumer" className="gap-1.5">
          <NativeSelect
            className="w-64"
            value={consumerId}
            onChange={(e) => {
              setConsumerId(e.target.value);
              setKeyId("");
            }}
          >
            {consumers.length === 0 ? <option value="">No consumers yet</option> : null}
            <SelectOptions options={consumers.map((c) => ({ value: c.id, label: c.name }))} />
          </NativeSelect>
        </FormField>
        <FormField id="connect-key" label="Key" className="gap-1.5">
          <NativeSelect className="w-72" value={keyId} onChange={(e) => setKeyId(e.target.value)}>
            <option value="">Placeholder: paste your key</option>
            <SelectOptions options={consumer?.keys.map((k) => ({ value: k.id, label: `${k.name} (${k.prefix}…)` })) ?? []} />
          </NativeSelect>
        </FormField>
      </div>
      <p className="text-sm text-muted-foreground">
        Keys are shown only once, when created: the snippets hold {key ? `the prefix ${key.prefix}… of the chosen key` : "a placeholder"}; replace it with the
        full key you stored.
      </p>
      <section aria-labelledby="tools-heading" className="grid gap-2">
        <h3 id="tools-heading" className="font-medium">
          Tools {consumer ? `${consumer.name}'s keys see` : "a key sees"}
        </h3>
        {!consumer ? (
          <p className="text-sm text-muted-foreground">Create a consumer first.</p>
        ) : !consumer.planAllows ? (
          <p className="text-sm text-muted-foreground">None: the plan does not include AI access, so AI clients are refused (403).</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Tools">
            {[...consumer.tools, ...SERVER_TOOLS].map((t) => (
              <li key={t.name} className="rounded-md border px-2 py-1 font-mono text-xs" title={t.title}>
                {t.name}
              </li>
            ))}
          </ul>
        )}
        {consumer?.planAllows && consumer.tools.length === 0 ? (
          <p className="text-sm text-muted-foreground">No Flow API yet: turn an API&apos;s switch on and grant it to this consumer.</p>
        ) : null}
      </section>
      <div className="grid gap-4">
        {configs.map((c) => (
          <section key={c.id} aria-labelledby={`cfg-${c.id}`} className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <h3 id={`cfg-${c.id}`} className="font-medium">
                  {c.title}
                </h3>
                <p className="text-sm text-muted-foreground">{c.where}</p>
              </div>
              <CopyButton text={c.text} label={`Copy ${c.title} configuration`} />
            </div>
            <pre tabIndex={0} aria-label={`${c.title} configuration`} data-config={c.id} className="overflow-x-auto rounded-md bg-muted p-3 text-xs">
              {c.text}
            </pre>
          </section>
        ))}
      </div>
    </TitledCard>
  );
}
