/**
 * Where the edges of polygon rings meet, in O(n log n) time for n edges: the self-intersection
 * check of `validateArea` (lib/geo/validate-geojson.ts), with the same answers as Turf's
 * `kinks` (@turf/kinks 7), which compares every pair of edges (O(n²): 16,000 positions held the
 * event loop for about 70 s).
 *
 * Turf's rule ("kinks", on planar longitude/latitude): two edges meet when they are not
 * parallel (Turf skips parallel and collinear pairs, and zero-length edges, as its determinant
 * is 0) and share a point (crossing or touching), unless they follow each other in the same
 * ring (`|i - k| = 1`, or the first and the last edge of the ring). Edges of different rings
 * have no exception.
 *
 * How, in three parts:
 * 1. Repeated consecutive positions make zero-length edges; the edges on either side of them
 *    share the repeated position but do not follow each other by index, so Turf counts them
 *    when they are not parallel. One pass over each ring finds these (O(n)).
 * 2. A sweep line (Shamos & Hoey 1976, "Geometric intersection problems"; the variant for
 *    polygons in de Berg et al., "Computational Geometry", ch. 2) decides in O(n log n) whether
 *    any two edges share a point other than two consecutive edges (repeated positions skipped)
 *    at their common vertex: the OGC Simple Features notion of a simple ring. The sweep visits
 *    the edge endpoints in (x, y) order, keeps the edges the line crosses ordered bottom to top
 *    in a treap, and compares only edges that become neighbours there, and all edges through
 *    the same event point (more than two such edges always include a meeting pair).
 *    When it finds no such pair, Turf finds none either (its pairs are a subset, apart from
 *    part 1). When the pair it finds is one Turf counts, that is the answer.
 * 3. Otherwise the rings are degenerate: edges overlap along a line or touch end to end in a
 *    straight line (a pair Turf skips as parallel, e.g. a ring that runs out and back along
 *    one parallel). With at most `MAX_EXACT_PAIRWISE_EDGES` edges every pair is compared by
 *    Turf's rule (at most about 2 million pairs); with more, the overlap itself is the answer
 *    (such rings are not simple in the OGC sense, so they are refused rather than compared
 *    pairwise on the event loop).
 *
 * Orientation is computed in doubles (exact for coordinates with few significant digits, as
 * are the tests); Turf's own float rule decides whether a pair counts, so answers equal Turf's
 * except where two edges pass within rounding error of each other.
 */
import type { Position } from "geojson";

/** Most edges compared pair by pair when edges overlap along a line (part 3 above). */
export const MAX_EXACT_PAIRWISE_EDGES = 2_000;

/** A point where two edges meet. `overlap`: the edges run along one line (Turf skips such pairs; see part 3). */
export interface TEdgeMeeting {
  at: [number, number];
  overlap: boolean;
}

/** What `findKink` found. */
export interface TKinkCheck {
  /** A point where two edges meet by Turf's rule, or (with `overlap`) where degenerate edges overlap; null: none. */
  kink: TEdgeMeeting | null;
  /**
   * True when no two edges share a point except consecutive edges at their common vertex (the
   * rings are simple and do not meet each other): then every vertex of one ring is strictly
   * inside or strictly outside each other ring.
   */
  simple: boolean;
}

interface TEdge {
  ring: number;
  /** Index of the edge in its ring: from position `index` to `index + 1`. */
  index: number;
  /** Position among the ring's non-zero-length edges, and how many there are. */
  order: number;
  count: number;
  /** Start and end in the ring's direction. */
  sx: number;
  sy: number;
  ex: number;
  ey: number;
  /** Endpoints in sweep order: a before b by (x, y). */
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

/** Twice the signed area of (a, b, c): > 0 when c is left of a->b (counterclockwise), 0 when collinear. */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Sign of orient, with the point given as an edge's sweep-order start or end. */
function side(e: TEdge, x: number, y: number): number {
  return orient(e.ax, e.ay, e.bx, e.by, x, y);
}

function within(e: TEdge, x: number, y: number): boolean {
  return Math.min(e.ax, e.bx) <= x && x <= Math.max(e.ax, e.bx) && Math.min(e.ay, e.by) <= y && y <= Math.max(e.ay, e.by);
}

/** Edges that follow each other in one ring once zero-length edges are skipped. */
function consecutive(s: TEdge, t: TEdge): 0 | 1 | -1 {
  if (s.ring !== t.ring) return 0;
  if ((s.order + 1) % s.count === t.order) return 1;
  if ((t.order + 1) % t.count === s.order) return -1;
  return 0;
}

/**
 * Whether two edges share a point that a simple ring forbids, and one such point: any shared
 * point, except for consecutive edges that share only their common vertex.
 */
function meeting(s: TEdge, t: TEdge): [number, number] | null {
  const c = consecutive(s, t);
  if (c !== 0) {
    const [first, second] = c === 1 ? [s, t] : [t, s];
    // Common vertex V = first's end = second's start; they share more only when second turns back along first.
    const vx = first.ex;
    const vy = first.ey;
    if (orient(first.sx, first.sy, vx, vy, second.ex, second.ey) !== 0) return null;
    const dot = (first.sx - vx) * (second.ex - vx) + (first.sy - vy) * (second.ey - vy);
    if (dot <= 0) return null;
    // The shorter of the two ends inside the other.
    return within(second, first.sx, first.sy) ? [first.sx, first.sy] : [second.ex, second.ey];
  }
  const o1 = side(s, t.ax, t.ay);
  const o2 = side(s, t.bx, t.by);
  const o3 = side(t, s.ax, s.ay);
  const o4 = side(t, s.bx, s.by);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    const hit = turfLineIntersects(s, t);
    if (hit) return hit;
    // Doubles disagree at the edge of rounding; any point of the crossing will do for the message.
    return [t.ax, t.ay];
  }
  if (o1 === 0 && within(s, t.ax, t.ay)) return [t.ax, t.ay];
  if (o2 === 0 && within(s, t.bx, t.by)) return [t.bx, t.by];
  if (o3 === 0 && within(t, s.ax, s.ay)) return [s.ax, s.ay];
  if (o4 === 0 && within(t, s.bx, s.by)) return [s.bx, s.by];
  return null;
}

/**
 * Turf's `lineIntersects` of @turf/kinks 7, line for line (the same float operations, so the
 * same answers): the intersection point of two non-parallel edges that share a point, or null.
 */
function turfLineIntersects(l1: TEdge, l2: TEdge): [number, number] | null {
  const denominator = (l2.ey - l2.sy) * (l1.ex - l1.sx) - (l2.ex - l2.sx) * (l1.ey - l1.sy);
  if (denominator === 0) return null;
  let a = l1.sy - l2.sy;
  let b = l1.sx - l2.sx;
  const numerator1 = (l2.ex - l2.sx) * a - (l2.ey - l2.sy) * b;
  const numerator2 = (l1.ex - l1.sx) * a - (l1.ey - l1.sy) * b;
  a = numerator1 / denominator;
  b = numerator2 / denominator;
  if (a >= 0 && a <= 1 && b >= 0 && b <= 1) return [l1.sx + a * (l1.ex - l1.sx), l1.sy + a * (l1.ey - l1.sy)];
  return null;
}

/** Turf's rule for one pair: skip consecutive edges of a ring by index, else `lineIntersects`, in Turf's loop order. */
function turfMeeting(s: TEdge, t: TEdge, ringLength: (ring: number) => number): [number, number] | null {
  const [l1, l2] = s.ring < t.ring || (s.ring === t.ring && s.index <= t.index) ? [s, t] : [t, s];
  if (l1.ring === l2.ring) {
    if (l2.index - l1.index === 1) return null;
    if (l1.index === 0 && l2.index === ringLength(l1.ring) - 2) return null;
  }
  return turfLineIntersects(l1, l2);
}

// A treap (randomised search tree) of the edges the sweep line crosses, bottom to top. It is
// only split and merged by predicates evaluated at the current event point, so it needs no
// comparator that holds between events.
interface TNode {
  edge: TEdge;
  priority: number;
  left: TNode | null;
  right: TNode | null;
}

/**
 * Splits into the longest prefix whose edges satisfy `inLeft` (a prefix predicate) and the
 * rest, returned in `parts` (reused: the sweep splits twice per event point).
 */
function split(node: TNode | null, inLeft: (e: TEdge) => boolean, parts: { left: TNode | null; right: TNode | null }): void {
  // Iterative top-down split: hang nodes on the right spine of the left part and the left spine of the right part.
  let leftRoot: TNode | null = null;
  let rightRoot: TNode | null = null;
  let leftTail: TNode | null = null;
  let rightTail: TNode | null = null;
  while (node) {
    if (inLeft(node.edge)) {
      if (leftTail) leftTail.right = node;
      else leftRoot = node;
      leftTail = node;
      node = node.right;
    } else {
      if (rightTail) rightTail.left = node;
      else rightRoot = node;
      rightTail = node;
      node = node.left;
    }
  }
  if (leftTail) leftTail.right = null;
  if (rightTail) rightTail.left = null;
  parts.left = leftRoot;
  parts.right = rightRoot;
}

function merge(a: TNode | null, b: TNode | null): TNode | null {
  if (!a) return b;
  if (!b) return a;
  if (a.priority > b.priority) {
    a.right = merge(a.right, b);
    return a;
  }
  b.left = merge(a, b.left);
  return b;
}

function lowest(node: TNode | null): TEdge | null {
  if (!node) return null;
  while (node.left) node = node.left;
  return node.edge;
}

function highest(node: TNode | null): TEdge | null {
  if (!node) return null;
  while (node.right) node = node.right;
  return node.edge;
}

/** Appends the first edges of a tree, bottom up, until `out` holds `max`. */
function firstEdges(node: TNode | null, max: number, out: TEdge[]): void {
  if (!node || out.length >= max) return;
  firstEdges(node.left, max, out);
  if (out.length < max) out.push(node.edge);
  firstEdges(node.right, max, out);
}

function edgesOf(rings: readonly Position[][]): TEdge[] {
  const edges: TEdge[] = [];
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    const first = edges.length;
    let order = 0;
    for (let i = 0; i + 1 < ring.length; i++) {
      const sx = ring[i]![0]!;
      const sy = ring[i]![1]!;
      const ex = ring[i + 1]![0]!;
      const ey = ring[i + 1]![1]!;
      if (sx === ex && sy === ey) continue;
      const forward = sx < ex || (sx === ex && sy < ey);
      edges.push({
        ring: r,
        index: i,
        order: order++,
        count: 0,
        sx,
        sy,
        ex,
        ey,
        ax: forward ? sx : ex,
        ay: forward ? sy : ey,
        bx: forward ? ex : sx,
        by: forward ? ey : sy,
      });
    }
    for (let k = first; k < edges.length; k++) edges[k]!.count = order;
  }
  return edges;
}

/**
 * Part 1: the non-zero edges on either side of a run of repeated positions (cyclically), when
 * Turf counts them. O(n).
 */
function repeatedPositionKink(edges: readonly TEdge[], ringLength: (ring: number) => number): [number, number] | null {
  for (let k = 0; k < edges.length; k++) {
    const e = edges[k]!;
    const next = e.order + 1 < e.count ? edges[k + 1]! : edges[k - e.order]!;
    const gap = next.index > e.index ? next.index - e.index : next.index + ringLength(e.ring) - 1 - e.index;
    if (gap <= 1 || next === e) continue;
    const hit = turfMeeting(e, next, ringLength);
    if (hit) return hit;
  }
  return null;
}

/**
 * Part 2: a pair of edges that share a point a simple ring forbids (see `meeting`), or null
 * when there is none. Shamos-Hoey sweep, O(n log n) expected.
 */
export function findForbiddenMeeting(
  rings: readonly Position[][],
): { at: [number, number]; edges: [{ ring: number; index: number }, { ring: number; index: number }] } | null {
  const found = sweep(edgesOf(rings));
  if (!found) return null;
  const [s, t] = found.edges;
  return {
    at: found.at,
    edges: [
      { ring: s.ring, index: s.index },
      { ring: t.ring, index: t.index },
    ],
  };
}

function sweep(edges: readonly TEdge[]): { at: [number, number]; edges: [TEdge, TEdge] } | null {
  // Event k: the start (even k) or end (odd k) of edge k >> 1, in (x, y) order.
  const xs = new Float64Array(edges.length * 2);
  const ys = new Float64Array(edges.length * 2);
  edges.forEach((e, i) => {
    xs[2 * i] = e.ax;
    ys[2 * i] = e.ay;
    xs[2 * i + 1] = e.bx;
    ys[2 * i + 1] = e.by;
  });
  const events = new Uint32Array(edges.length * 2).map((_, k) => k);
  events.sort((p, q) => xs[p]! - xs[q]! || ys[p]! - ys[q]!);
  // Deterministic priorities (xorshift32) so that a run is reproducible.
  let seed = 0x9e3779b9;
  const priority = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const check = (s: TEdge | null, t: TEdge | null) => {
    if (!s || !t) return null;
    const at = meeting(s, t);
    return at ? { at, edges: [s, t] as [TEdge, TEdge] } : null;
  };
  let px = 0;
  let py = 0;
  const isBelow = (t: TEdge) => side(t, px, py) > 0;
  const isThrough = (t: TEdge) => side(t, px, py) === 0;
  const parts: { left: TNode | null; right: TNode | null } = { left: null, right: null };
  const starting: TEdge[] = [];
  const atPoint: TEdge[] = [];
  let root: TNode | null = null;
  for (let i = 0; i < events.length;) {
    px = xs[events[i]!]!;
    py = ys[events[i]!]!;
    starting.length = 0;
    for (; i < events.length && xs[events[i]!] === px && ys[events[i]!] === py; i++) if (events[i]! % 2 === 0) starting.push(edges[events[i]! >> 1]!);
    // Edges below the point, edges through it (ending there or passing it), edges above it.
    split(root, isBelow, parts);
    const below = parts.left;
    split(parts.right, isThrough, parts);
    const through = parts.left;
    const above = parts.right;
    // More than two edges at one point always include a forbidden pair, so a few suffice.
    atPoint.length = 0;
    firstEdges(through, 3, atPoint);
    for (let k = 0; k < starting.length && k < 3; k++) atPoint.push(starting[k]!);
    for (let a = 0; a < atPoint.length; a++) {
      for (let b = a + 1; b < atPoint.length; b++) {
        const found = check(atPoint[a]!, atPoint[b]!);
        if (found) return found;
      }
    }
    // No forbidden pair here: the edges through the point all end at it and leave the line.
    if (starting.length > 1) starting.sort((s, t) => -Math.sign(orient(px, py, s.bx, s.by, t.bx, t.by)));
    let middle: TNode | null = null;
    for (const e of starting) middle = merge(middle, { edge: e, priority: priority(), left: null, right: null });
    const down = highest(below);
    const up = lowest(above);
    const found = starting.length > 0 ? (check(down, starting[0]!) ?? check(starting[starting.length - 1]!, up)) : check(down, up);
    if (found) return found;
    root = merge(merge(below, middle), above);
  }
  return null;
}

/**
 * Finds a point where two edges of `rings` meet by Turf's `kinks` rule (see the module
 * comment), in O(n log n) for n edges unless the rings are degenerate (part 3). `rings`: closed
 * rings of [x, y(, z)] positions (z ignored), at least 2 positions each. Pass one ring to check
 * it alone, or all rings of a polygon to check them together (as `kinks(polygon)` does).
 */
export function findKink(rings: readonly Position[][]): TKinkCheck {
  const ringLength = (r: number) => rings[r]!.length;
  const edges = edgesOf(rings);
  const repeated = repeatedPositionKink(edges, ringLength);
  const forbidden = sweep(edges);
  if (!forbidden) return { kink: repeated ? { at: repeated, overlap: false } : null, simple: !repeated };
  if (repeated) return { kink: { at: repeated, overlap: false }, simple: false };
  const [s, t] = forbidden.edges;
  const hit = turfMeeting(s, t, ringLength);
  if (hit) return { kink: { at: hit, overlap: false }, simple: false };
  if (edges.length > MAX_EXACT_PAIRWISE_EDGES) return { kink: { at: forbidden.at, overlap: true }, simple: false };
  for (let a = 0; a < edges.length; a++) {
    for (let b = a + 1; b < edges.length; b++) {
      const found = turfMeeting(edges[a]!, edges[b]!, ringLength);
      if (found) return { kink: { at: found, overlap: false }, simple: false };
    }
  }
  return { kink: null, simple: false };
}
