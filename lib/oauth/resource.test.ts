import { describe, expect, it } from "vitest";
import { mcpResourceUrl, parseMcpResource, protectedResourceMetadata, resourceMetadataUrl } from "@/lib/oauth/resource";

const ORIGIN = "https://flow.example";

describe("MCP resources", () => {
  it("names an environment's MCP endpoint and finds it again", () => {
    const url = mcpResourceUrl(ORIGIN, { organization: "demo", environment: "production" });
    expect(url).toBe("https://flow.example/public/mcp/demo/production");
    expect(parseMcpResource(ORIGIN, url)).toEqual({ organization: "demo", environment: "production" });
  });

  it("refuses what is not exactly an MCP endpoint of this origin", () => {
    for (const r of [
      "https://other.example/public/mcp/demo/production",
      "http://flow.example/public/mcp/demo/production",
      "https://flow.example/public/mcp/demo/production/",
      "https://flow.example/public/mcp/demo/production?x=1",
      "https://flow.example/public/mcp/demo/production#f",
      "https://flow.example/public/api/demo/production",
      "https://flow.example/public/mcp/Demo/production",
      "https://flow.example/public/mcp/demo",
      "not a url",
      undefined,
      ["https://flow.example/public/mcp/demo/production"],
    ]) {
      expect(parseMcpResource(ORIGIN, r), String(r)).toBeNull();
    }
  });

  it("serves the metadata at the path-aware well-known URL (RFC 9728 section 3.1)", () => {
    const path = { organization: "demo", environment: "staging" };
    expect(resourceMetadataUrl(ORIGIN, path)).toBe("https://flow.example/.well-known/oauth-protected-resource/public/mcp/demo/staging");
    expect(protectedResourceMetadata(ORIGIN, path)).toMatchObject({
      resource: "https://flow.example/public/mcp/demo/staging",
      authorization_servers: [ORIGIN],
      bearer_methods_supported: ["header"],
    });
  });
});
