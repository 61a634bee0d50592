import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { API_KEY_PLACEHOLDER, mcpClientConfigs, mcpEndpointUrl, mcpServerName } from "@/lib/mcp/client-config";

const url = mcpEndpointUrl("https://api.example.com/", "demo", "production");
const name = mcpServerName("demo", "production");

describe("mcpClientConfigs", () => {
  it("builds the address and a client-safe name", () => {
    expect(url).toBe("https://api.example.com/public/mcp/demo/production");
    expect(name).toBe("flow-api-demo-production");
  });

  it("gives every client the address and the key header", () => {
    const configs = mcpClientConfigs({ url, name, apiKey: "fapi_secret" });
    expect(configs.map((c) => c.id)).toEqual(["claude-code", "cursor", "vscode", "generic", "mcp-remote"]);
    for (const c of configs) {
      expect(c.text).toContain(url);
      if (c.language === "json") JSON.parse(c.text);
    }
    expect(JSON.parse(configs[1].text)).toEqual({ mcpServers: { [name]: { url, headers: { "X-Api-Key": "fapi_secret" } } } });
  });

  it("never writes the key into VS Code's file: it is a password input", () => {
    const vscode = JSON.parse(mcpClientConfigs({ url, name, apiKey: "fapi_secret" })[2].text);
    expect(vscode.inputs[0]).toMatchObject({ type: "promptString", password: true });
    expect(vscode.servers[name]).toEqual({ type: "http", url, headers: { "X-Api-Key": "${input:flow-api-key}" } });
    expect(JSON.stringify(vscode)).not.toContain("fapi_secret");
  });

  it("gives Claude Code the key through FLOW_API_KEY, so a shared .mcp.json (--scope project) holds only the reference", () => {
    const text = mcpClientConfigs({ url, name, apiKey: "fapi_se'cret" })[0].text;
    // Run the snippet in a real shell with `claude` standing in as a function that prints what it
    // would store: the arguments, one per line, and the variable Claude Code expands at connect time.
    const out = execFileSync("bash", ["-c", `claude() { printf '%s\\n' "$@" "env=$FLOW_API_KEY"; }\n${text}`], { encoding: "utf8" }).split("\n");
    expect(out.slice(0, 7)).toEqual(["mcp", "add", "--transport", "http", name, url, "--header"]);
    expect(out[7]).toBe("X-Api-Key: ${FLOW_API_KEY}");
    expect(out[8]).toBe("env=fapi_se'cret");
    expect(text.split("\n")[1]).not.toContain("fapi_se");
  });

  it("passes the key to mcp-remote through an environment variable", () => {
    const remote = JSON.parse(mcpClientConfigs({ url, name, apiKey: "fapi_secret" })[4].text).mcpServers[name];
    expect(remote.args).toEqual(["-y", "mcp-remote", url, "--header", "X-Api-Key:${FLOW_API_KEY}"]);
    expect(remote.env).toEqual({ FLOW_API_KEY: "fapi_secret" });
  });

  it("uses a placeholder without a key", () => {
    expect(mcpClientConfigs({ url, name })[1].text).toContain(API_KEY_PLACEHOLDER);
  });
});

describe("the README's snippets", () => {
  it("are exactly what the generator (and so the console) gives for the demo", async () => {
    const { readFileSync } = await import("node:fs");
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const demo = mcpClientConfigs({
      url: mcpEndpointUrl("http://127.0.0.1:3000", "demo", "production"),
      name: mcpServerName("demo", "production"),
      apiKey: "fapi_...",
    });
    for (const c of demo) expect(readme, c.id).toContain(c.text);
  });
});
