"use client";
/**
 * The JSON view of the flow editor: CodeMirror 6 (bundled, no CDN). The text lives in the
 * workbench; the server's problems are underlined at their place (json-positions.ts).
 */
import { useEffect, useMemo, useRef } from "react";
import { Annotation, EditorState } from "@codemirror/state";
import { EditorView, lineNumbers, highlightActiveLine } from "@codemirror/view";
import { json } from "@codemirror/lang-json";
import { linter, lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { jsonPositions, locate } from "@/features/design/json-positions";
import type { TFieldError } from "@/lib/errors/field-error";

/** Marks a change of the text made from outside the editor (not the user's typing). */
const EXTERNAL = Annotation.define<boolean>();

export interface TFlowJsonEditorProps {
  /** The document's text; the editor follows changes made elsewhere (the canvas, undo). */
  text: string;
  onChange: (text: string) => void;
  /** The server's problems, underlined at their JSON Pointer. */
  problems: TFieldError[] | null;
  /** Text of the label above the editor. */
  label: string;
  /** Receives a function that moves the cursor to a pointer's place (the problem list uses it). */
  goToRef: React.MutableRefObject<((pointer: string) => void) | null>;
}

/**
 * The editor in the app's theme tokens (app/globals.css: --syntax-* and the base tokens), so
 * both themes keep WCAG AA contrast: CodeMirror's default highlight colours and light gutter
 * were built for a white page (in the dark theme the tokens and line numbers fell below 4.5:1).
 */
const JSON_HIGHLIGHT = HighlightStyle.define([
  { tag: tags.propertyName, color: "var(--syntax-property)" },
  { tag: tags.string, color: "var(--syntax-string)" },
  { tag: tags.number, color: "var(--syntax-number)" },
  { tag: [tags.bool, tags.null, tags.keyword], color: "var(--syntax-keyword)" },
  { tag: tags.invalid, color: "var(--destructive)" },
]);
const EDITOR_THEME = EditorView.theme({
  "&": { fontSize: "13px", height: "100%", color: "var(--foreground)", backgroundColor: "var(--background)" },
  ".cm-scroller": { fontFamily: "var(--font-geist-mono), monospace" },
  ".cm-content": { caretColor: "var(--foreground)" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--foreground)" },
  ".cm-gutters": { backgroundColor: "var(--muted)", color: "var(--muted-foreground)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--syntax-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent)", color: "var(--accent-foreground)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": { backgroundColor: "var(--syntax-selection)" },
  ".cm-matchingBracket": { backgroundColor: "var(--syntax-selection)", color: "inherit" },
});

/** The JSON view of the flow document (see module doc); controlled: `text` comes from the workbench. */
export function FlowJsonEditor({ text, onChange, problems, label, goToRef }: TFlowJsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          bracketMatching(),
          indentOnInput(),
          syntaxHighlighting(JSON_HIGHLIGHT),
          json(),
          lintGutter(),
          linter(null),
          // tabindex: axe counts a contenteditable as keyboard-reachable only with it (scrollable-region-focusable).
          EditorView.contentAttributes.of({ "aria-label": "Flow version document (JSON)", tabindex: "0" }),
          EditorView.updateListener.of((u) => {
            // Only the user's typing: text set from outside (below) is annotated as such.
            if (u.docChanged && !u.transactions.some((t) => t.annotation(EXTERNAL))) onChangeRef.current(u.state.doc.toString());
          }),
          EDITOR_THEME,
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // The editor is created once; later text arrives through the effect below.
  }, []);

  // Text changed elsewhere (the canvas, undo/redo): replace the editor's content.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === text) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, annotations: EXTERNAL.of(true) });
  }, [text]);

  const positions = useMemo(() => jsonPositions(text), [text]);
  useEffect(() => {
    const v = view.current;
    if (!v || !problems) return;
    const len = v.state.doc.length;
    const diagnostics: Diagnostic[] = problems.map((p) => {
      const span = locate(positions, p.field, len);
      return {
        from: Math.min(span.from, len),
        to: Math.min(Math.max(span.to, span.from + 1), len),
        severity: "error",
        message: `${p.field || "/"}: ${p.message}`,
      };
    });
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [problems, positions]);

  useEffect(() => {
    goToRef.current = (pointer: string) => {
      const v = view.current;
      if (!v) return;
      const span = locate(positions, pointer, v.state.doc.length);
      v.dispatch({ selection: { anchor: span.from, head: span.to }, scrollIntoView: true });
      v.focus();
    };
  }, [goToRef, positions]);

  return (
    <div className="grid gap-2">
      <span className="text-sm font-medium" id="flow-editor-label">
        {label}
      </span>
      <div ref={host} aria-labelledby="flow-editor-label" className="h-[28rem] overflow-hidden rounded-md border bg-background" data-testid="flow-editor" />
    </div>
  );
}
