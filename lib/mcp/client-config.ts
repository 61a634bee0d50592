/**
 * Ready-to-paste configuration for connecting common AI clients to an environment's MCP
 * address, shared by the README and the console's "Connect an AI client" view (pure: no I/O,
 * safe in client components).
 *
 * Every snippet sends the key in `X-Api-Key`. `mcpServerName` makes a readable server name
 * (`flow-api-<organization>-<environment>`); `mcpEndpointUrl` the address.
 * A file a client may share (a project's `.mcp.json`, `.vscode/mcp.json`) never holds the key:
 * it names an environment variable (`${FLOW_API_KEY}`) or a prompted input instead.
 * Formats followed: Claude Code's `claude mcp add --transport http <name> <url> --header`
 * (the header value stays `${FLOW_API_KEY}`, single-quoted so the shell does not expand it;
 * Claude Code expands `${VAR}` in headers when it connects, per its MCP docs),
 * Cursor's `mcp.json` (`mcpServers` with `url` and `headers`), VS Code's `.vscode/mcp.json`
 * (`servers`, `type: "http"`, the key from a `promptString` input with `password: true` so
 * it is never written into the file), the generic `mcpServers` JSON many clients read, and
 * `mcp-remote` (a local stdio bridge for clients without remote/header support; its
 * `--header` value is written `Name:${VAR}` without a space, as its docs advise).
 */

export interface TClientConfigInput {
  /** Absolute MCP address, e.g. `https://api.example.com/public/mcp/demo/production`. */
  url: string;
  /** Server name shown in the client; letters, digits, `-` and `_`. */
  name: string;
  /** The secret to put in the snippets; a placeholder when absent (the console shows secrets once). */
  apiKey?: string;
}

export interface TClientConfig {
  id: "claude-code" | "cursor" | "vscode" | "generic" | "mcp-remote";
  title: string;
  /** Where the text goes. */
  where: string;
  language: "shell" | "json";
  text: string;
}

export const API_KEY_PLACEHOLDER = "<your API key>";
/** The environment variable the shell and mcp-remote snippets read the key from. */
export const KEY_ENV_VAR = "FLOW_API_KEY";

/** `/public/mcp/{organization}/{environment}` under `baseUrl`. */
export function mcpEndpointUrl(baseUrl: string, organization: string, environment: string): string {
  return `${baseUrl.replace(/\/$/, "")}/public/mcp/${organization}/${environment}`;
}

/** A readable, client-safe server name for an environment. */
export function mcpServerName(organization: string, environment: string): string {
  return `flow-api-${organization}-${environment}`.replace(/[^A-Za-z0-9_-]/g, "-");
}

const json = (value: unknown) => JSON.stringify(value, null, 2);
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Every client's configuration for `input` (see module doc). */
export function mcpClientConfigs(input: TClientConfigInput): TClientConfig[] {
  const key = input.apiKey ?? API_KEY_PLACEHOLDER;
  const headers = { "X-Api-Key": key };
  return [
    {
      id: "claude-code",
      title: "Claude Code",
      where: `Run in a terminal; Claude Code reads the key from ${KEY_ENV_VAR} when it starts, so --scope project shares .mcp.json without the key`,
      language: "shell",
      text: [
        `export ${KEY_ENV_VAR}=${shellQuote(key)}`,
        `claude mcp add --transport http ${input.name} ${input.url} --header ${shellQuote(`X-Api-Key: \${${KEY_ENV_VAR}}`)}`,
      ].join("\n"),
    },
    {
      id: "cursor",
      title: "Cursor",
      where: "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project)",
      language: "json",
      text: json({ mcpServers: { [input.name]: { url: input.url, headers } } }),
    },
    {
      id: "vscode",
      title: "VS Code",
      where: ".vscode/mcp.json (VS Code asks for the key once and stores it securely)",
      language: "json",
      text: json({
        inputs: [{ type: "promptString", id: "flow-api-key", description: "Flow API key", password: true }],
        servers: { [input.name]: { type: "http", url: input.url, headers: { "X-Api-Key": "${input:flow-api-key}" } } },
      }),
    },
    {
      id: "generic",
      title: "Other clients (mcpServers JSON)",
      where: "The client's MCP configuration file",
      language: "json",
      text: json({ mcpServers: { [input.name]: { type: "http", url: input.url, headers } } }),
    },
    {
      id: "mcp-remote",
      title: "Clients without remote servers or headers (mcp-remote)",
      where: "The client's MCP configuration file; needs Node.js (npx)",
      language: "json",
      text: json({
        mcpServers: {
          [input.name]: { command: "npx", args: ["-y", "mcp-remote", input.url, "--header", `X-Api-Key:\${${KEY_ENV_VAR}}`], env: { [KEY_ENV_VAR]: key } },
        },
      }),
    },
  ];
}
