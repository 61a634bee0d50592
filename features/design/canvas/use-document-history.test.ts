import { describe, expect, it } from "vitest";
import { historyStep, type THistoryState } from "./use-document-history";

const start: THistoryState = { past: [], text: "a", future: [] };
const set = (s: THistoryState, text: string, join = false) => historyStep(s, { type: "set", text, join });

describe("historyStep", () => {
  it("undoes and redoes whole documents, and a new change drops what could be redone", () => {
    let s = set(set(start, "b"), "c");
    expect(s).toEqual({ past: ["a", "b"], text: "c", future: [] });
    s = historyStep(s, { type: "undo" });
    s = historyStep(s, { type: "undo" });
    expect(s).toEqual({ past: [], text: "a", future: ["b", "c"] });
    expect(historyStep(s, { type: "undo" })).toBe(s);
    s = historyStep(s, { type: "redo" });
    expect(s.text).toBe("b");
    s = set(s, "x");
    expect(s).toEqual({ past: ["a", "b"], text: "x", future: [] });
    expect(historyStep(s, { type: "redo" })).toBe(s);
  });

  it("joins quick changes of one field into one step, and ignores a change to the same text", () => {
    let s = set(start, "ab");
    s = set(s, "abc", true);
    s = set(s, "abcd", true);
    expect(s).toEqual({ past: ["a"], text: "abcd", future: [] });
    expect(set(s, "abcd")).toBe(s);
    // Nothing to join to at the start: the first change is still a step of its own.
    expect(set(start, "z", true)).toEqual({ past: ["a"], text: "z", future: [] });
  });

  it("keeps at most 200 steps", () => {
    let s = start;
    for (let i = 0; i < 250; i++) s = set(s, `t${i}`);
    expect(s.past).toHaveLength(200);
    expect(s.past[199]).toBe("t248");
  });
});
