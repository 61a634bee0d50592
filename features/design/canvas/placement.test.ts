import { describe, expect, it } from "vitest";
import { placeInView, type TRect } from "./placement";

const SIZE = { width: 200, height: 80 };
const VIEW: TRect = { x: 0, y: 0, width: 1000, height: 600 };
const node = (x: number, y: number): TRect => ({ x, y, ...SIZE });
const within = (r: TRect, view: TRect) => r.x >= view.x && r.y >= view.y && r.x + r.width <= view.x + view.width && r.y + r.height <= view.y + view.height;

describe("placeInView", () => {
  it("puts the first node in the middle of the view", () => {
    expect(placeInView(VIEW, [], SIZE)).toEqual({ at: { x: 400, y: 260 }, inView: true });
  });

  it("puts a node next to one in the middle, below it first, and in view", () => {
    const { at, inView } = placeInView(VIEW, [node(400, 260)], SIZE);
    expect(inView).toBe(true);
    expect(at).toEqual({ x: 400, y: 356 });
  });

  it("keeps adding in view, never on another node, until the view is full", () => {
    const taken: TRect[] = [];
    for (let k = 0; k < 12; k++) {
      const { at, inView } = placeInView(VIEW, taken, SIZE);
      expect(inView, `node ${k}`).toBe(true);
      const r = node(at.x, at.y);
      expect(within(r, VIEW), `node ${k} at ${at.x},${at.y}`).toBe(true);
      for (const t of taken) expect(r.x + r.width <= t.x || t.x + t.width <= r.x || r.y + r.height <= t.y || t.y + t.height <= r.y).toBe(true);
      taken.push(r);
    }
  });

  it("works in any part of the canvas (a panned view)", () => {
    const view = { x: -3000, y: 1200, width: 800, height: 500 };
    const { at, inView } = placeInView(view, [node(-2700, 1400)], SIZE);
    expect(inView).toBe(true);
    expect(within(node(at.x, at.y), view)).toBe(true);
  });

  it("avoids the overlays (a minimap in the lower right corner)", () => {
    const small = { x: 0, y: 0, width: 500, height: 300 };
    const minimap = { x: 300, y: 180, width: 200, height: 120 };
    const { at } = placeInView(small, [node(150, 110), minimap], SIZE);
    const r = node(at.x, at.y);
    expect(r.x + r.width <= minimap.x || r.y + r.height <= minimap.y).toBe(true);
  });

  it("when the view is full, goes below the node in the middle and says the view must move", () => {
    const tiny = { x: 0, y: 0, width: 300, height: 120 };
    const { at, inView } = placeInView(tiny, [node(50, 20)], SIZE);
    expect(inView).toBe(false);
    expect(at).toEqual({ x: 50, y: 116 });
  });
});
