/**
 * Where a node added from the palette with the keyboard goes (a dropped one goes where it was
 * dropped): the free place nearest the middle of what the canvas shows. Pure, in flow
 * coordinates; the canvas converts its visible area (and the overlays on it: minimap,
 * zoom buttons) with React Flow's `screenToFlowPosition`.
 */

export interface TRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TPlacement {
  /** The new node's top-left corner. */
  at: { x: number; y: number };
  /** False when the view had no free place: `at` is below the others, and the view should move to it. */
  inView: boolean;
}

/** Space kept between the new node and the nodes around it, and the edge of the view. */
const GAP = { x: 24, y: 16 };

function overlaps(a: TRect, b: TRect): boolean {
  return a.x < b.x + b.width + GAP.x && b.x < a.x + a.width + GAP.x && a.y < b.y + b.height + GAP.y && b.y < a.y + a.height + GAP.y;
}

function inside(a: TRect, view: TRect): boolean {
  return a.x >= view.x && a.y >= view.y && a.x + a.width <= view.x + view.width && a.y + a.height <= view.y + view.height;
}

/**
 * The place for a new node of `size` in `view` (the visible part of the canvas) that overlaps
 * none of `taken` (nodes and overlays): of the places on a grid of one node's size around the
 * middle of the view, the nearest to the middle that lies wholly in view (ties: below, then
 * right, before above and left). When there is none (a full or very zoomed-in view), the first
 * free place straight below the middle, with `inView: false`.
 */
export function placeInView(view: TRect, taken: readonly TRect[], size: { width: number; height: number }): TPlacement {
  const middle = { x: view.x + (view.width - size.width) / 2, y: view.y + (view.height - size.height) / 2 };
  const step = { x: size.width + GAP.x, y: size.height + GAP.y };
  const free = (x: number, y: number) => !taken.some((t) => overlaps({ x, y, ...size }, t));
  const nx = Math.ceil(view.width / step.x);
  const ny = Math.ceil(view.height / step.y);
  const candidates: { i: number; j: number; d: number }[] = [];
  for (let i = -nx; i <= nx; i++) for (let j = -ny; j <= ny; j++) candidates.push({ i, j, d: (i * step.x) ** 2 + (j * step.y) ** 2 });
  candidates.sort((a, b) => a.d - b.d || b.j - a.j || b.i - a.i);
  for (const { i, j } of candidates) {
    const at = { x: middle.x + i * step.x, y: middle.y + j * step.y };
    if (inside({ ...at, ...size }, view) && free(at.x, at.y)) return { at, inView: true };
  }
  const at = { ...middle };
  while (!free(at.x, at.y)) at.y += step.y;
  return { at, inView: false };
}
