import { describe, expect, it } from "vitest";
import { redirectUriRefusal } from "@/lib/oauth/redirect-uris";

describe("redirect URIs a client may register", () => {
  it("takes https anywhere and http on loopback hosts only", () => {
    for (const uri of [
      "https://client.example/callback",
      "https://localhost:8443/cb",
      "http://localhost:8976/callback",
      "http://localhost/callback",
      "http://127.0.0.1:53682/callback",
      "http://[::1]:9000/cb",
    ]) {
      expect(redirectUriRefusal(uri, "web"), uri).toBeNull();
    }
    for (const uri of [
      "http://evil.example/cb",
      "http://localhost.evil.example/cb",
      "http://127.0.0.2/cb",
      "http://10.0.0.1/cb",
      "http://[::2]/cb",
      "http://0.0.0.0:3000/cb",
    ]) {
      expect(redirectUriRefusal(uri, "web"), uri).toMatch(/uses http on a host that is not loopback/);
    }
  });

  it("takes a private-use scheme from a native client only", () => {
    expect(redirectUriRefusal("com.example.app:/callback", "native")).toBeNull();
    expect(redirectUriRefusal("com.example.app:/callback", "web")).toMatch(/private-use scheme needs application_type "native"/);
    expect(redirectUriRefusal("javascript:alert(1)", undefined)).toMatch(/scheme "javascript"/);
  });

  it("refuses what is not an absolute URI", () => {
    expect(redirectUriRefusal("/callback", "web")).toMatch(/not an absolute URI/);
  });
});
