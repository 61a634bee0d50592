/**
 * The text of a double exactly as `String(x)` (ECMAScript Number::toString) writes it, written
 * digit by digit into a byte buffer without making a string, for the common case of a
 * non-integer of moderate size (1e-6 <= |x| < 1e15). Everything else (integers, very small or
 * large magnitudes, and the rare values where the cheap exact checks below cannot decide) is
 * left to the caller, which then writes `String(x)`.
 *
 * Why: a nearby-cities run (5,000 places, 30 km) writes 242,168 distances to CSV, and
 * `String(km)` with the strings it leaves behind was about half of the CSV writer's time:
 * measured in one process on the same machine, that CSV took 265-550 ms with String() and
 * 160-310 ms with this (the same bytes); alone, 242,168 such numbers take ~25 ms here against
 * ~60 ms for String().
 *
 * The rule (ECMA-262 Number::toString): the fewest significant digits whose decimal value reads
 * back as `x` (round to nearest, ties to even), and of those the one nearest to `x`. In fixed
 * notation (which String uses for 1e-6 <= |x| < 1e21) "fewest significant digits" is "fewest
 * digits after the point", k. A candidate with k decimals is an integer n with n / 10^k
 * reading back as x. Two facts make that check exact and cheap:
 *
 * - For n < 2^53 and k <= 22, n and 10^k are both exact doubles, and IEEE 754 division is
 *   correctly rounded, so `n / 10^k === x` holds exactly when the decimal n·10^-k reads back as x.
 * - p = fl(x·10^k) is within half an ulp of the exact product, which bounds the candidates to
 *   round(p) (and its neighbours where the product has 16 digits, see below).
 *
 * Steps, with k16 the k that gives 16 significant digits (10^15 <= x·10^k16 < 10^16):
 * 1. 16 digits: the valid candidates among round(p) - 1 .. round(p) + 1 (a valid n is within
 *    half an ulp of x, i.e. less than 1 in these units, of the exact product, which is within
 *    0.5 of p). Two valid ones (ties between candidates): left to String. None: step 3.
 * 2. Fewer digits: one k at a time downwards while round(x·10^k) is valid (there the half-ulp
 *    is under 0.1 and p within 1/16 of the product, so round(p) is the only candidate); the
 *    last valid one is the answer (validity only grows with k: n·10 is valid at k + 1).
 * 3. 17 digits (always enough for a double): the integer nearest to the exact product x·10^k,
 *    computed exactly as p + e by Dekker's TwoProduct (T. J. Dekker, "A floating-point
 *    technique for extending the available precision", Numer. Math. 18, 1971), with n kept as
 *    q·10^8 + r since it is above 2^53. An exact tie (e at .5) is left to String.
 * Where the 16-digit product is at or above 2^53 (leading digits >= 9007...), integers there
 * are no longer all doubles: only answers of 15 digits or fewer are found (step 2 from 15
 * digits); longer ones are left to String.
 *
 * Checked against String() on millions of random doubles in shortest-decimal.test.ts.
 */

/** 10^0 .. 10^22, every one an exact double. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Dekker's split of each power of ten: hi + lo === 10^k, each with at most 26 significant bits. */
const SPLITTER = 134217729; // 2^27 + 1
const POW10_HI: readonly number[] = POW10.map((p) => {
  const c = SPLITTER * p;
  return c - (c - p);
});
const POW10_LO: readonly number[] = POW10.map((p, i) => p - POW10_HI[i]!);
const TWO_53 = 9007199254740992;

/** The answer's digits (up to 17 significant, zero-padded on the left to `DIGITS`) before they are placed. */
const DIGITS = 24;
const digits = new Uint8Array(DIGITS);

/** "0000" .. "9999" as ASCII, four bytes each. */
const FOUR_DIGITS = new Uint8Array(40_000);
for (let i = 0; i < 10_000; i++) {
  const text = String(i).padStart(4, "0");
  for (let j = 0; j < 4; j++) FOUR_DIGITS[i * 4 + j] = text.charCodeAt(j);
}

/** Writes the integer `v` (0 <= v < 10^8) as 8 digits, zero-padded, ending before `end` in `digits`. */
function putEight(v: number, end: number): void {
  const x = v | 0; // int32 arithmetic from here on (v < 2^31)
  const hi = (x / 10_000) | 0;
  let o = hi * 4;
  digits[end - 8] = FOUR_DIGITS[o]!;
  digits[end - 7] = FOUR_DIGITS[o + 1]!;
  digits[end - 6] = FOUR_DIGITS[o + 2]!;
  digits[end - 5] = FOUR_DIGITS[o + 3]!;
  o = (x - hi * 10_000) * 4;
  digits[end - 4] = FOUR_DIGITS[o]!;
  digits[end - 3] = FOUR_DIGITS[o + 1]!;
  digits[end - 2] = FOUR_DIGITS[o + 2]!;
  digits[end - 1] = FOUR_DIGITS[o + 3]!;
}

/** Writes the integer 0 < n < 2^53 into `digits` (ending at `DIGITS`); returns where its first non-zero digit is. */
function putDigits(n: number): number {
  const hi = Math.floor(n / 1e8);
  putEight(n - hi * 1e8, DIGITS);
  putEight(hi, DIGITS - 8);
  let from = DIGITS - 16;
  while (digits[from] === 0x30) from++;
  return from;
}

/**
 * Writes the text of the decimal `digits[from..end)` · 10^-k (no trailing zeros, k >= 1) into
 * `buf` at `pos`: "12.5", "0.0031". Returns the position after it.
 */
function place(buf: Uint8Array, pos: number, from: number, end: number, k: number): number {
  const count = end - from;
  if (count > k) {
    const point = end - k;
    for (let i = from; i < point; i++) buf[pos++] = digits[i]!;
    buf[pos++] = 0x2e;
    for (let i = point; i < end; i++) buf[pos++] = digits[i]!;
  } else {
    buf[pos++] = 0x30;
    buf[pos++] = 0x2e;
    for (let z = count; z < k; z++) buf[pos++] = 0x30;
    for (let i = from; i < end; i++) buf[pos++] = digits[i]!;
  }
  return pos;
}

/** Most bytes `writeShortestDecimal` writes: a sign, "0.", five zeros and 17 digits, or 17 digits and a point. */
export const SHORTEST_DECIMAL_MAX_BYTES = 25;

/**
 * Writes `x` as `String(x)` would into `buf` at `pos` (ASCII, at most
 * `SHORTEST_DECIMAL_MAX_BYTES` bytes, which the caller makes room for) and returns the position
 * after it, or -1 (the bytes from `pos` on are then undefined) when `x` is not one this function decides (integers,
 * |x| < 1e-6 or >= 1e15, NaN, infinities, and the rare cases named in the module doc).
 */
export function writeShortestDecimal(buf: Uint8Array, pos: number, x: number): number {
  const a = Math.abs(x);
  if (!(a >= 1e-6 && a < 1e15) || Number.isInteger(a)) return -1;
  // k16: rounding of p is monotonic, so comparing it with the exact doubles 1e15 and 1e16
  // classifies the exact product right.
  let k = 15;
  let p = a * 1e15;
  while (p >= 1e16 && k > 1) p = a * POW10[--k]!;
  while (p < 1e15 && k < 21) p = a * POW10[++k]!;
  if (!(p >= 1e15 && p < 1e16)) return -1;

  if (x < 0) buf[pos++] = 0x2d;
  const r = Math.round(p);
  const scale = POW10[k]!;
  let n: number;
  if (p >= TWO_53) {
    // 16 digits cannot be checked exactly here: only an answer of 15 digits or fewer is ours.
    const m = Math.round(a * POW10[k - 1]!);
    if (m / POW10[k - 1]! !== a) return -1;
    n = m;
    k--;
  } else if (r / scale === a) {
    if ((r - 1) / scale === a || (r + 1) / scale === a) return -1;
    n = r;
  } else {
    const below = (r - 1) / scale === a;
    const above = (r + 1) / scale === a;
    if (below && above) return -1;
    if (!below && !above) return seventeen(buf, pos, a, k + 1);
    n = below ? r - 1 : r + 1;
  }
  // Fewer digits while they still read back as x.
  while (k > 1) {
    const m = Math.round(a * POW10[k - 1]!);
    if (m / POW10[k - 1]! !== a) break;
    n = m;
    k--;
  }
  return place(buf, pos, putDigits(n), DIGITS, k);
}

/**
 * Step 3 of the module doc: the 17 significant digits of `a` nearest to it, with `k` decimals
 * (10^16 <= a·10^k < 10^17). Returns the position after them, or -1 on an
 * exact tie or an unexpected trailing zero.
 */
function seventeen(buf: Uint8Array, pos: number, a: number, k: number): number {
  if (k > 22) return -1;
  // Dekker's TwoProduct: p + e === a · 10^k exactly.
  const p = a * POW10[k]!;
  const c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  const bh = POW10_HI[k]!;
  const bl = POW10_LO[k]!;
  const e = ah * bh - p + ah * bl + al * bh + al * bl;
  const re = Math.round(e);
  if (Math.abs(e - re) === 0.5) return -1;
  // p >= 1e16 > 2^53 is an integer; n = p + re as q·10^8 + rest (q·10^8 is exact: q < 2^30 and 10^8 = 2^8·5^8).
  // (p - q·10^8 and the small re are exact integers; a rounded division leaves q off by one at most)
  let q = Math.floor(p / 1e8);
  let rest = p - q * 1e8 + re;
  while (rest < 0) {
    q--;
    rest += 1e8;
  }
  while (rest >= 1e8) {
    q++;
    rest -= 1e8;
  }
  if (q < 1e8 || q >= 1e9) return -1;
  putEight(rest, DIGITS);
  const lead = Math.floor(q / 1e8);
  putEight(q - lead * 1e8, DIGITS - 8);
  digits[DIGITS - 17] = 0x30 + lead;
  if (digits[DIGITS - 1] === 0x30) return -1;
  return place(buf, pos, DIGITS - 17, DIGITS, k);
}
