/**
 * A small layered layout for the canvas (no dagre/elk): a node's layer is its longest path from
 * a root (edges on a cycle, in a faulty document, are ignored); within a layer nodes are
 * ordered by the mean place of the nodes they read (one barycentre sweep) and centred on the
 * largest layer. Returns each node's top-left corner in pixels. `direction: "down"` makes
 * layers rows: a flow is deeper than wide, so laid out downwards it fits the canvas at about
 * twice the zoom.
 */

export interface TLayoutOptions {
  columnWidth: number;
  rowHeight: number;
  /** Where edges point: "right" (default, layers are columns) or "down" (layers are rows). */
  direction?: "right" | "down";
}

/** Positions of `ids` by topological depth (see module doc). */
export function layeredLayout(
  ids: readonly string[],
  edges: readonly { source: string; target: string }[],
  options: TLayoutOptions,
): Map<string, { x: number; y: number }> {
  const known = new Set(ids);
  const incoming = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) if (known.has(e.source) && known.has(e.target) && e.source !== e.target) incoming.get(e.target)!.push(e.source);

  // Longest path from a root; a node met again while being visited is on a cycle: that edge counts 0.
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (id: string): number => {
    const hit = depth.get(id);
    if (hit !== undefined) return hit;
    if (visiting.has(id)) return -1;
    visiting.add(id);
    let d = 0;
    for (const src of incoming.get(id)!) {
      const s = depthOf(src);
      if (s >= 0) d = Math.max(d, s + 1);
    }
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  for (const id of ids) depthOf(id);

  const columns: string[][] = [];
  for (const id of ids) (columns[depth.get(id)!] ??= []).push(id);
  const row = new Map<string, number>();
  columns.forEach((col, c) => {
    if (c > 0) {
      const key = (id: string) => {
        const rows = incoming
          .get(id)!
          .map((s) => row.get(s))
          .filter((r): r is number => r !== undefined);
        return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Number.POSITIVE_INFINITY;
      };
      const order = new Map(col.map((id, i) => [id, i]));
      col.sort((a, b) => key(a) - key(b) || order.get(a)! - order.get(b)!);
    }
    col.forEach((id, r) => row.set(id, r));
  });
  const tallest = Math.max(0, ...columns.map((c) => c?.length ?? 0));
  const out = new Map<string, { x: number; y: number }>();
  const down = options.direction === "down";
  columns.forEach((col, c) => {
    const offset = ((tallest - col.length) * (down ? options.columnWidth : options.rowHeight)) / 2;
    col.forEach((id, r) =>
      out.set(id, down ? { x: offset + r * options.columnWidth, y: c * options.rowHeight } : { x: c * options.columnWidth, y: offset + r * options.rowHeight }),
    );
  });
  return out;
}
