"use client";
/**
 * The flow document's text with a history of documents for undo/redo. Every change is one
 * step back, except changes with the same `coalesce` key within 1.5 s of each other (typing
 * in one field or in the JSON view), which are one step together. At most 200 steps are kept.
 * The rules are the pure `historyStep` (tested in use-document-history.test.ts).
 */
import { useCallback, useRef, useState } from "react";

const LIMIT = 200;
const COALESCE_MS = 1500;

export interface THistoryState {
  past: string[];
  text: string;
  future: string[];
}

export type THistoryAction = { type: "set"; text: string; join: boolean } | { type: "undo" } | { type: "redo" };

/** The history after one action: a new text (joined to the last step or a step of its own), undo or redo. */
export function historyStep(s: THistoryState, a: THistoryAction): THistoryState {
  if (a.type === "undo") return s.past.length === 0 ? s : { past: s.past.slice(0, -1), text: s.past[s.past.length - 1]!, future: [s.text, ...s.future] };
  if (a.type === "redo") return s.future.length === 0 ? s : { past: [...s.past, s.text], text: s.future[0]!, future: s.future.slice(1) };
  if (s.text === a.text) return s;
  if (a.join && s.past.length > 0) return { past: s.past, text: a.text, future: [] };
  return { past: [...s.past, s.text].slice(-LIMIT), text: a.text, future: [] };
}

export interface TDocumentHistory {
  text: string;
  /** Sets the text; `coalesce` joins quick changes of one source into one undo step. */
  set: (text: string, coalesce?: string) => void;
  undo: () => void;
  redo: () => void;
  canUndo: boolean;
  canRedo: boolean;
}

/** History of the document's text (see module doc). */
export function useDocumentHistory(initial: string): TDocumentHistory {
  const [state, setState] = useState<THistoryState>({ past: [], text: initial, future: [] });
  const last = useRef<{ key: string | undefined; at: number }>({ key: undefined, at: 0 });

  const set = useCallback((text: string, coalesce?: string) => {
    const now = Date.now();
    const join = coalesce !== undefined && last.current.key === coalesce && now - last.current.at < COALESCE_MS;
    last.current = { key: coalesce, at: now };
    setState((s) => historyStep(s, { type: "set", text, join }));
  }, []);
  const move = useCallback((type: "undo" | "redo") => {
    last.current = { key: undefined, at: 0 };
    setState((s) => historyStep(s, { type }));
  }, []);
  return { text: state.text, set, undo: () => move("undo"), redo: () => move("redo"), canUndo: state.past.length > 0, canRedo: state.future.length > 0 };
}
