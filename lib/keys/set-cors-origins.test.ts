import { describe, expect, it } from "vitest";
import { canonicalOrigin } from "@/lib/keys/set-cors-origins";

describe("canonicalOrigin", () => {
  it("accepts origins as browsers send them, and *", () => {
    expect(canonicalOrigin("https://app.example.com")).toBe("https://app.example.com");
    expect(canonicalOrigin(" HTTPS://App.Example.com:443 ")).toBe("https://app.example.com");
    expect(canonicalOrigin("http://localhost:5173")).toBe("http://localhost:5173");
    expect(canonicalOrigin("https://app.example.com/")).toBe("https://app.example.com");
    expect(canonicalOrigin("*")).toBe("*");
  });

  it("refuses paths, queries, credentials, other schemes and non-URLs", () => {
    for (const bad of ["https://app.example.com/path", "https://a.example?x=1", "https://u:p@a.example", "ftp://a.example", "app.example.com", "", "null"]) {
      expect(canonicalOrigin(bad), bad).toBeNull();
    }
  });
});
