import { describe, expect, it } from "vitest";
import { fetchClientMetadataDocument, isClientMetadataDocumentId } from "@/lib/oauth/client-metadata-document";

describe("Client ID Metadata Documents", () => {
  it("takes only https URLs with a path as document ids", () => {
    expect(isClientMetadataDocumentId("https://client.example/oauth/client.json")).toBe(true);
    for (const id of ["https://client.example", "https://client.example/", "http://client.example/c.json", "abc123"])
      expect(isClientMetadataDocumentId(id), id).toBe(false);
  });

  it("fetches nothing from plain http, loopback or private addresses", async () => {
    for (const url of [
      "http://client.example/c.json",
      "https://127.0.0.1/c.json",
      "https://[::1]/c.json",
      "https://10.0.0.8/c.json",
      "https://169.254.169.254/latest",
    ]) {
      expect(await fetchClientMetadataDocument(url), url).toBeNull();
    }
  });
});
