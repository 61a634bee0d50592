import { describe, expect, it } from "vitest";
import { roleAllows } from "@/lib/auth/roles";

describe("roleAllows", () => {
  it("lets an admin do what a designer may, never the reverse", () => {
    expect(roleAllows("admin", "admin")).toBe(true);
    expect(roleAllows("admin", "designer")).toBe(true);
    expect(roleAllows("designer", "designer")).toBe(true);
    expect(roleAllows("designer", "admin")).toBe(false);
  });
});
