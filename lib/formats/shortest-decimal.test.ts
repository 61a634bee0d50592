/** `writeShortestDecimal` must write exactly what String() writes, or leave the number to String(). */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SHORTEST_DECIMAL_MAX_BYTES, writeShortestDecimal } from "./shortest-decimal";

const buf = new Uint8Array(64);
const ascii = new TextDecoder("ascii");

/** The text written for `x`, or null where the function leaves it to String(). */
function written(x: number): string | null {
  const end = writeShortestDecimal(buf, 0, x);
  if (end < 0) return null;
  if (end > SHORTEST_DECIMAL_MAX_BYTES) throw new Error(`${end} bytes for ${x}`);
  return ascii.decode(buf.subarray(0, end));
}

/** Every number it decides is String()'s text; returns the share it decided. */
function agreesWithString(xs: Iterable<number>): number {
  let decided = 0;
  let total = 0;
  for (const x of xs) {
    total++;
    const text = written(x);
    if (text === null) continue;
    decided++;
    if (text !== String(x)) expect({ x, text }).toEqual({ x, text: String(x) });
  }
  return decided / total;
}

/** Doubles from random 64-bit patterns (every exponent, subnormals, NaN and infinities). */
function* randomBits(n: number, next: () => number): Generator<number> {
  const view = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < n; i++) {
    view.setUint32(0, next() >>> 0);
    view.setUint32(4, next() >>> 0);
    yield view.getFloat64(0);
  }
}

/** A seeded 32-bit generator (mulberry32), so a failure can be repeated. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

describe("writeShortestDecimal", () => {
  it("writes what String() writes for distances, coordinates and short decimals", () => {
    const cases = [0.1, 0.2, 0.3, 1 / 3, 2 / 3, 0.30000000000000004, 1e-6, 1.5e-6, 0.5, 1.5, 9.5, 123.456, -7.25, 2.747764732819674];
    expect(cases.map(written)).toEqual(cases.map(String));
    // the boundaries of its range and what lies outside it: left to String()
    for (const x of [0, -0, 1, -12, 1e-7, 9.99e-7, 1e15, 1e15 + 0.5, 1e21, 5e-324, NaN, Infinity, -Infinity]) expect(written(x)).toBeNull();
    // 16 digits at or above 2^53 are left to String(), shorter ones there are not
    expect([written(999999999999999.9), written(9.5), written(95.25)]).toEqual([null, "9.5", "95.25"]);
  });

  it("agrees with String() on a million random doubles and decides most of those a table holds", () => {
    const next = mulberry32(20261125);
    const uniform = (n: number, scale: number) => Array.from({ length: n }, () => (next() / 2 ** 32) * scale);
    // distances of a 30 km search, and longitudes/latitudes
    expect(agreesWithString(uniform(200_000, 30))).toBeGreaterThan(0.9);
    expect(agreesWithString(uniform(100_000, 360).map((v) => v - 180))).toBeGreaterThan(0.85);
    // every magnitude it handles, both signs
    const logUniform = Array.from({ length: 200_000 }, () => (next() / 2 ** 32 - 0.5) * 10 ** (Math.floor((next() / 2 ** 32) * 22) - 6));
    expect(agreesWithString(logUniform)).toBeGreaterThan(0.85);
    // decimals with 1..17 significant digits, where the shorter candidates and ties between them live
    const short = Array.from({ length: 100_000 }, () => Number(((next() / 2 ** 32) * 1000).toPrecision(1 + (next() % 17))));
    agreesWithString(short);
    agreesWithString(short.map((v) => -v / 1000));
    // any bit pattern (most are outside its range and left to String())
    agreesWithString(randomBits(200_000, next));
  });

  it("agrees with String() on doubles next to powers of ten and halfway cases", () => {
    fc.assert(
      fc.property(fc.integer({ min: -6, max: 14 }), fc.integer({ min: -64, max: 64 }), (e, ulps) => {
        const p = Number(`1e${e}`);
        const view = new DataView(new ArrayBuffer(8));
        view.setFloat64(0, p);
        view.setBigInt64(0, view.getBigInt64(0) + BigInt(ulps));
        const x = view.getFloat64(0);
        const text = written(x);
        return text === null || text === String(x);
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e15, noNaN: true }), (x) => {
        const text = written(x);
        return text === null || text === String(x);
      }),
      { numRuns: 20_000 },
    );
  });
});
