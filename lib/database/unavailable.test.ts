/**
 * Which database failures are answered 503, and with which code. The error shapes are those
 * recorded from pg 8 and Prisma 7 (adapter-pg) against PostgreSQL 17: a statement cancelled by
 * `statement_timeout`, the client's own `query_timeout`, a session ended by
 * `idle_in_transaction_session_timeout`, and the pool refusing a caller.
 */
import { describe, expect, it } from "vitest";
import { PoolOverloadedError } from "@/lib/db";
import { databaseAppError, isDatabaseOverloaded, isDatabaseUnavailable } from "./unavailable";
import { problem } from "@/lib/http/problem";

/** pg's DatabaseError as thrown for SQLSTATE `code`. */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: "error", code, severity: "ERROR" });
}

/** Prisma's wrapping of a driver error (PrismaClientKnownRequestError P2010 with the driver's cause in meta). */
function prismaWrapped(code: string, message: string): Error {
  return Object.assign(new Error(`Invalid \`prisma.$queryRaw()\` invocation:\n\nRaw query failed. Code: \`${code}\`. Message: \`${message}\``), {
    name: "PrismaClientKnownRequestError",
    code: "P2010",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: code, originalMessage: message, kind: "postgres", code, message } } },
  });
}

describe("databaseAppError", () => {
  it("answers a statement cancelled by statement_timeout (57014) as 503 service_unavailable with Retry-After", () => {
    for (const err of [
      pgError("57014", "canceling statement due to statement timeout"),
      prismaWrapped("57014", "canceling statement due to statement timeout"),
    ]) {
      const mapped = databaseAppError(err);
      expect(mapped?.code).toBe("service_unavailable");
      expect(mapped?.retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it("answers the client's own query timeout and a session the server ended as 503 service_unavailable", () => {
    // what pg throws when query_timeout fires (no code), and what Prisma throws for a connection the server closed
    for (const err of [new Error("Query read timeout"), new Error("Client has encountered a connection error and is not queryable")]) {
      expect(databaseAppError(err)?.code).toBe("service_unavailable");
    }
    expect(isDatabaseUnavailable(pgError("25P03", "terminating connection due to idle-in-transaction timeout"))).toBe(true);
    // Prisma's interactive transaction that found no connection within its maxWait (database stopped)
    const noStart = Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), {
      name: "PrismaClientKnownRequestError",
      code: "P2028",
      meta: {},
    });
    expect(databaseAppError(noStart)?.code).toBe("service_unavailable");
  });

  it("answers a pool that refused the caller as 503 overloaded, not as an outage, whether thrown by pg or wrapped by Prisma", () => {
    const direct = new PoolOverloadedError("all 20 connections are busy and 200 callers already wait for one");
    // Prisma 7 rethrows the adapter's error as PrismaClientKnownRequestError, copying its `code`
    const viaPrisma = Object.assign(new Error("Invalid `db.user.findFirst()` invocation"), {
      name: "PrismaClientKnownRequestError",
      code: direct.code,
      meta: { modelName: "User" },
    });
    for (const err of [direct, viaPrisma, new Error("outer", { cause: direct })]) {
      expect(isDatabaseOverloaded(err)).toBe(true);
      expect(isDatabaseUnavailable(err)).toBe(false);
      const mapped = databaseAppError(err);
      expect(mapped?.code).toBe("overloaded");
      expect(mapped?.retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it("leaves other errors alone (a bug is a 500, not a 503)", () => {
    expect(databaseAppError(new TypeError("x is undefined"))).toBeNull();
    expect(databaseAppError(pgError("23505", "duplicate key value violates unique constraint"))).toBeNull();
  });
});

describe("the overloaded problem", () => {
  it("is a 503 with Retry-After and a problem type of its own, distinct from service_unavailable", async () => {
    const mapped = databaseAppError(new PoolOverloadedError("all 20 connections are busy and 200 callers already wait for one"))!;
    const res = problem(mapped.code, mapped.detail, { instance: "/x", retryAfterSeconds: mapped.retryAfterSeconds });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await res.json();
    expect(body.type).toBe("https://flow-api.dev/problems/overloaded");
    expect(body.code).toBe("overloaded");
    const outage = await problem("service_unavailable", "x").json();
    expect(body.type).not.toBe(outage.type);
    expect(body.title).not.toBe(outage.title);
  });
});
