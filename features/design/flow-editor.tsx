"use client";
/**
 * The flow version editor: CodeMirror 6 (bundled, no CDN) with JSON highlighting and live
 * validation by the server's own validator (`validateFlowDocumentAction`, debounced). Each
 * problem is underlined at its place (JSON Pointer → text span, json-positions.ts) and listed
 * below with its pointer and message; a problem in the list moves the cursor to its place.
 * Saving creates a new immutable version (or, for a new flow, the flow with version 1).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { EditorState } from "@codemirror/state";
import { EditorView, lineNumbers, highlightActiveLine, keymap } from "@codemirror/view";
import { json } from "@codemirror/lang-json";
import { linter, lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { CheckCircle2Icon, CircleAlertIcon, LoaderCircleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { createFlowAction, saveFlowVersionAction, validateFlowDocumentAction } from "@/features/design/actions";
import { jsonPositions, locate } from "@/features/design/json-positions";
import type { TFieldError } from "@/lib/errors/field-error";
import { FlowPreviewSection } from "@/features/design/flow-run/flow-preview-section";

export interface TFlowEditorProps {
  organization: string;
  workspace: string;
  /** Absent: a new flow (name field, "Create flow"). */
  flowId?: string;
  initialText: string;
  /** The number the next save gets. */
  nextVersion: number;
  disabledReason?: string | null;
  flowsHref: string;
  /** Show "Run the flow" (a preview of the text as it is, flow-run/) under the editor. */
  preview?: boolean;
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

export function FlowEditor(props: TFlowEditorProps) {
  const router = useRouter();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const [text, setText] = useState(props.initialText);
  const [problems, setProblems] = useState<TFieldError[] | null>(null);
  const [checking, setChecking] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const validate = useAction(validateFlowDocumentAction);
  const save = useAction(saveFlowVersionAction);
  const create = useAction(createFlowAction);
  const ref = { organization: props.organization, workspace: props.workspace };

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: props.initialText,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          bracketMatching(),
          indentOnInput(),
          syntaxHighlighting(JSON_HIGHLIGHT),
          json(),
          lintGutter(),
          linter(null),
          keymap.of([]),
          // tabindex: axe counts a contenteditable as keyboard-reachable only with it (scrollable-region-focusable).
          EditorView.contentAttributes.of({ "aria-label": "Flow version document (JSON)", tabindex: "0" }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) setText(u.state.doc.toString());
          }),
          EDITOR_THEME,
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // The editor is created once; later text comes from the user.
  }, []);

  // Live validation, debounced, by the server's validator.
  useEffect(() => {
    setChecking(true);
    const t = setTimeout(async () => {
      const r = await validate.executeAsync({ ...ref, text });
      setChecking(false);
      if (r?.data) setProblems(r.data.errors);
    }, 350);
    return () => clearTimeout(t);
  }, [text]);

  const positions = useMemo(() => jsonPositions(text), [text]);
  useEffect(() => {
    const v = view.current;
    if (!v || !problems) return;
    const diagnostics: Diagnostic[] = problems.map((p) => {
      const span = locate(positions, p.field, v.state.doc.length);
      const len = v.state.doc.length;
      return {
        from: Math.min(span.from, len),
        to: Math.min(Math.max(span.to, span.from + 1), len),
        severity: "error",
        message: `${p.field || "/"}: ${p.message}`,
      };
    });
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [problems, positions]);

  const goTo = (pointer: string) => {
    const v = view.current;
    if (!v) return;
    const span = locate(positions, pointer, v.state.doc.length);
    v.dispatch({ selection: { anchor: span.from, head: span.to }, scrollIntoView: true });
    v.focus();
  };

  const onSave = async () => {
    if (props.flowId) {
      const r = await save.executeAsync({ ...ref, flowId: props.flowId, text });
      if (r?.data) {
        toast.success(`Saved version ${r.data.version}.`);
        router.refresh();
      } else if (r?.serverError) {
        toast.error(r.serverError.message);
        if (Object.keys(r.serverError.fieldErrors).length > 0)
          setProblems(Object.entries(r.serverError.fieldErrors).map(([field, message]) => ({ field, code: "invalid", message })));
      }
      return;
    }
    if (!name.trim()) {
      setNameError("A flow needs a name.");
      return;
    }
    const r = await create.executeAsync({ ...ref, name, text });
    if (r?.data) {
      toast.success(`Created flow "${name}" with version 1.`);
      router.push(`${props.flowsHref}/${r.data.flowId}`);
    } else if (r?.serverError) {
      const fe = r.serverError.fieldErrors;
      if (fe["/name"]) setNameError(fe["/name"]);
      else toast.error(r.serverError.message);
    } else if (r?.validationErrors) setNameError("Check the name.");
  };

  const busy = save.isPending || create.isPending;
  const valid = problems !== null && problems.length === 0;
  return (
    <div className="grid gap-4">
      {!props.flowId ? (
        <FormField id="flow-name" label="Name" error={nameError}>
          <Input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
            maxLength={100}
            placeholder="Cities in area"
          />
        </FormField>
      ) : null}
      <div className="grid gap-2">
        <span className="text-sm font-medium" id="flow-editor-label">
          Flow version document (JSON), starting from {props.flowId ? `version ${props.nextVersion - 1}` : "an example"}
        </span>
        <div ref={host} aria-labelledby="flow-editor-label" className="h-[28rem] overflow-hidden rounded-md border bg-background" data-testid="flow-editor" />
      </div>
      <div role="status" aria-live="polite" className="flex items-center gap-2 text-sm">
        {checking || problems === null ? (
          <>
            <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" /> Checking…
          </>
        ) : valid ? (
          <>
            <CheckCircle2Icon aria-hidden="true" className="size-4 text-emerald-600" /> No problems: the document is a valid flow version.
          </>
        ) : (
          <>
            <CircleAlertIcon aria-hidden="true" className="size-4 text-destructive" /> {problems.length} problem{problems.length === 1 ? "" : "s"}
          </>
        )}
      </div>
      {problems && problems.length > 0 ? (
        <ul className="grid gap-1 rounded-md border p-2 text-sm" aria-label="Problems" data-testid="flow-problems">
          {problems.map((p, i) => (
            <li key={`${p.field}-${i}`}>
              <button
                type="button"
                className="w-full rounded px-2 py-1 text-left hover:bg-muted focus-visible:ring-2 focus-visible:outline-none"
                onClick={() => goTo(p.field)}
              >
                <code className="mr-2 rounded bg-muted px-1 font-mono text-xs">{p.field || "/"}</code>
                {p.message}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-center gap-3">
        <Button onClick={onSave} disabled={busy || !valid || Boolean(props.disabledReason)}>
          {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
          {props.flowId ? `Save as version ${props.nextVersion}` : "Create flow"}
        </Button>
        {props.disabledReason ? <p className="text-sm text-muted-foreground">{props.disabledReason}</p> : null}
      </div>
      {props.preview ? <FlowPreviewSection organization={props.organization} workspace={props.workspace} text={text} /> : null}
    </div>
  );
}
