"use client";
/**
 * The flow editor: one document (its text and undo history live here), two views of it
 * switched by tabs (canvas, JSON). It is validated live, debounced, by the server's own
 * validator, which also answers each input's and step's columns; saving creates the next
 * immutable version (or the flow, with version 1). Below: the preview run (flow-run-panel.tsx),
 * whose step outcomes come back as badges on the nodes.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { CheckCircle2Icon, CircleAlertIcon, LoaderCircleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { createFlowAction, saveFlowVersionAction, validateFlowDocumentAction } from "@/features/design/actions";
import { FlowJsonEditor } from "@/features/design/flow-editor";
import { flowDocumentText, parseJson } from "@/features/design/flow-document-text";
import { FlowCanvas } from "@/features/design/canvas/flow-canvas";
import type { TPos } from "@/features/design/canvas/use-canvas-selection";
import type { TCanvasStepType, TFlowDoc } from "@/features/design/canvas/flow-graph-model";
import { useDocumentHistory } from "@/features/design/canvas/use-document-history";
import { FlowRunPanel, type TRunLayerDefaults, type TStepStatus } from "@/features/design/flow-run/flow-run-panel";
import type { TFieldError } from "@/lib/errors/field-error";
import type { TColumns } from "@/lib/steps/columns";

export interface TFlowWorkbenchProps {
  organization: string;
  workspace: string;
  /** Absent: a new flow (name field, "Create flow"). */
  flowId?: string;
  initialText: string;
  /** The number the next save gets. */
  nextVersion: number;
  disabledReason?: string | null;
  flowsHref: string;
  /** The step catalogue (lib/steps/catalogue.ts), for the palette and the forms. */
  catalogue: TCanvasStepType[];
  /** How "Run the flow" picks each layer input's first layer (features/design/data.ts `runLayerDefaults`). */
  layerDefaults: TRunLayerDefaults;
}

type TView = "canvas" | "json";

/** The flow editor (see module doc). */
export function FlowWorkbench(props: TFlowWorkbenchProps) {
  const router = useRouter();
  const history = useDocumentHistory(props.initialText);
  const { text } = history;
  const [view, setView] = useState<TView>("canvas");
  const [problems, setProblems] = useState<TFieldError[] | null>(null);
  const [columns, setColumns] = useState<Record<string, TColumns>>({});
  const [checking, setChecking] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [selectedStepId, setSelectedStepId] = useState<string | null>(null);
  const [stepStatus, setStepStatus] = useState<Record<string, TStepStatus>>({});
  const [positions, setPositions] = useState<Record<string, TPos>>({});
  const [focusNode, setFocusNode] = useState<{ pointer: string; at: number } | null>(null);
  const goTo = useRef<((pointer: string) => void) | null>(null);
  const validate = useAction(validateFlowDocumentAction);
  const save = useAction(saveFlowVersionAction);
  const create = useAction(createFlowAction);
  const ref = { organization: props.organization, workspace: props.workspace };

  const doc = useMemo(() => {
    const v = parseJson(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as TFlowDoc) : null;
  }, [text]);

  // Live validation, debounced, by the server's validator.
  useEffect(() => {
    setChecking(true);
    const t = setTimeout(async () => {
      const r = await validate.executeAsync({ ...ref, text });
      setChecking(false);
      if (r?.data) {
        setProblems(r.data.errors);
        setColumns(r.data.columns);
      }
    }, 350);
    return () => clearTimeout(t);
  }, [text]);

  const setDoc = useCallback((next: TFlowDoc, coalesce?: string) => history.set(flowDocumentText(next), coalesce), [history.set]);

  // Undo/redo from the keyboard anywhere on the page (also after a deleted node took the focus
  // with it), except inside a text field, which has its own undo. CodeMirror has no undo of its own here.
  const historyRef = useRef(history);
  historyRef.current = history;
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.defaultPrevented) return;
      const key = e.key.toLowerCase();
      if (key !== "z" && key !== "y") return;
      const t = e.target as HTMLElement | null;
      if (t && ((t.tagName === "INPUT" && !["checkbox", "radio", "button"].includes((t as HTMLInputElement).type)) || t.tagName === "TEXTAREA")) return;
      e.preventDefault();
      if (key === "y" || e.shiftKey) historyRef.current.redo();
      else historyRef.current.undo();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

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
    const r = await create.executeAsync({ ...ref, name, text });
    if (r?.data) {
      toast.success(`Created flow "${name}" with version 1.`);
      router.push(`${props.flowsHref}/${r.data.flowId}`);
    } else if (r?.serverError) {
      const fe = r.serverError.fieldErrors;
      if (fe["/name"]) setNameError(fe["/name"]);
      else toast.error(r.serverError.message);
    } else if (r?.validationErrors) setNameError(r.validationErrors.fieldErrors.name?.[0] ?? "Check the name.");
  };

  const onProblem = (pointer: string) => {
    if (view === "json") goTo.current?.(pointer);
    else setFocusNode({ pointer, at: Date.now() });
  };

  const busy = save.isPending || create.isPending;
  const valid = problems !== null && problems.length === 0;
  return (
    <div className="grid min-w-0 gap-4">
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
      <Tabs value={view} onValueChange={(v) => setView(v as TView)} className="min-w-0 gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <TabsList aria-label="View of the flow document">
            <TabsTrigger value="canvas">Canvas</TabsTrigger>
            <TabsTrigger value="json">JSON</TabsTrigger>
          </TabsList>
          <span className="text-sm text-muted-foreground">Starting from {props.flowId ? `version ${props.nextVersion - 1}` : "an example"}</span>
        </div>
        <TabsContent value="canvas" className="min-w-0">
          {doc ? (
            <FlowCanvas
              doc={doc}
              onChange={setDoc}
              catalogue={props.catalogue}
              problems={problems ?? []}
              columns={columns}
              history={history}
              stepStatus={stepStatus}
              selectedStepId={selectedStepId}
              onSelectStep={setSelectedStepId}
              focusProblem={focusNode}
              positions={positions}
              setPositions={setPositions}
            />
          ) : (
            <div className="grid justify-items-start gap-2 rounded-md border p-4 text-sm" role="alert">
              <p>The document is not valid JSON, so the canvas cannot show it. Fix it in the JSON view (or undo the last change).</p>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" onClick={() => setView("json")}>
                  Open the JSON view
                </Button>
                <Button variant="outline" size="sm" onClick={history.undo} disabled={!history.canUndo}>
                  Undo
                </Button>
              </div>
            </div>
          )}
        </TabsContent>
        <TabsContent value="json" className="min-w-0">
          <FlowJsonEditor
            text={text}
            onChange={(t) => history.set(t, "json")}
            problems={problems}
            goToRef={goTo}
            label={`Flow version document (JSON), starting from ${props.flowId ? `version ${props.nextVersion - 1}` : "an example"}`}
          />
        </TabsContent>
      </Tabs>
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
                className="w-full rounded px-2 py-1 text-left break-words hover:bg-muted focus-visible:ring-2 focus-visible:outline-none"
                onClick={() => onProblem(p.field)}
              >
                <code className="mr-2 rounded bg-muted px-1 font-mono text-xs break-all">{p.field || "/"}</code>
                {p.message}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={onSave} disabled={busy || !valid || Boolean(props.disabledReason)}>
          {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
          {props.flowId ? `Save as version ${props.nextVersion}` : "Create flow"}
        </Button>
        {props.disabledReason ? <p className="text-sm text-muted-foreground">{props.disabledReason}</p> : null}
      </div>
      <FlowRunPanel
        organization={props.organization}
        workspace={props.workspace}
        layerDefaults={props.layerDefaults}
        document={doc}
        selectedStepId={selectedStepId}
        onSelectStep={setSelectedStepId}
        onStepStatus={setStepStatus}
      />
    </div>
  );
}
