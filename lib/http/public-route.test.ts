import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";

let route: typeof import("./public-route");
beforeAll(async () => {
  // env() only parses the variables; nothing connects.
  process.env.DATABASE_URL ??= "postgres://unused@localhost/unused";
  route = await import("./public-route");
});

const ZQuery = z.object({ limit: z.coerce.number().int().min(1), state: z.enum(["queued", "running"]).optional() });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: AppError) => e,
  );

describe("readInput", () => {
  it("parses the query and the JSON body by schema", async () => {
    const req = new Request("http://localhost/x?limit=3&other=1", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"a"}' });
    const input = await route.readInput(req, { query: ZQuery, body: z.object({ name: z.string() }) });
    expect([input.query, input.body]).toEqual([{ limit: 3 }, { name: "a" }]);
  });

  it("names each faulty field by its logical pointer", async () => {
    const err = await refusal(route.readInput(new Request("http://localhost/x?limit=0&state=done"), { query: ZQuery }));
    expect(err?.code).toBe("validation_failed");
    expect(err?.errors?.map((e) => e.field).sort()).toEqual(["/limit", "/state"]);
  });
});

describe("errorResponse", () => {
  const err = new AppError("validation_failed", "bad", {
    errors: [
      { field: "/limit", code: "too_small", message: "m" },
      { field: "/inputs/area", code: "required", message: "m" },
    ],
  });

  it("writes the public API's pointer into the query for a field of the route's query schema, and leaves body fields", async () => {
    const body = await route.errorResponse(err, "/x", "key", ZQuery).json();
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["/query/limit", "/inputs/area"]);
  });

  it("keeps logical pointers for the browser, and answers what it does not know as 500 without internals", async () => {
    const body = await route.errorResponse(err, "/x", "session").json();
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["/limit", "/inputs/area"]);
    const original = console.error;
    console.error = () => {};
    try {
      const res = route.errorResponse(new Error("secret internals"), "/x");
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain("secret");
    } finally {
      console.error = original;
    }
  });
});
