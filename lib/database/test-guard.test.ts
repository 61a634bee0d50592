import { describe, expect, it } from "vitest";
import { assertLocalDatabase } from "./test-guard";

describe("assertLocalDatabase", () => {
  it("accepts loopback databases", () => {
    for (const u of ["postgresql://u:p@127.0.0.1:5432/db", "postgres://localhost/db", "postgresql://[::1]:5432/db"]) {
      expect(() => assertLocalDatabase(u)).not.toThrow();
    }
  });
  it("refuses anything else", () => {
    for (const u of ["postgresql://u:p@db.example.com/db", "postgresql://10.0.0.5/db", "not a url"]) {
      expect(() => assertLocalDatabase(u)).toThrow();
    }
  });
});
