"use client";
/**
 * An option edited as JSON text (see schema-field.tsx): a MapLibre expression (`where`, a
 * computed value), with help naming the document's parameters and the source's columns, or
 * any option no other control fits. Text that does not parse yet is kept and marked; the
 * document gets each value that parses.
 */
import { useEffect, useState } from "react";
import { Textarea } from "@/components/ui/textarea";
import { Field } from "@/features/design/canvas/form-fields";
import type { TSchemaFieldProps } from "@/features/design/canvas/field-schema";

const EXPRESSION_HELP: Record<"predicate" | "value", string> = {
  predicate: 'A MapLibre expression that is true for the items to keep, e.g. [">=", ["get", "population"], ["var", "min_population"]].',
  value: 'A MapLibre expression giving the value, e.g. ["*", ["get", "population"], 2] or ["concat", ["get", "name"], "!"].',
};

/** A JSON text area for an expression or an option of any other shape. */
export function JsonField(props: TSchemaFieldProps) {
  const { value, onChange, ctx, expression } = props;
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const [localError, setLocalError] = useState<string | null>(null);
  useEffect(() => {
    let same = false;
    try {
      same = JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
    } catch {
      same = false;
    }
    if (!same && !(text === "" && value === undefined)) {
      setText(value === undefined ? "" : JSON.stringify(value));
      setLocalError(null);
    }
  }, [value]);
  const cols = ctx.columnsAt(props.path) ?? [];
  const hint = expression
    ? `${EXPRESSION_HELP[expression]}${ctx.parameters.length ? ` Parameters: ${ctx.parameters.map((p) => p.name).join(", ")}.` : ""}${cols.length ? ` Columns: ${cols.join(", ")}.` : ""}`
    : (props.schema.description ?? "JSON value.");
  return (
    <Field
      id={props.id}
      label={`${props.label}${expression ? " (expression)" : " (JSON)"}${props.required ? "" : " (optional)"}`}
      hint={hint}
      problems={[...(localError ? [localError] : []), ...ctx.problemsAt(props.pointer)]}
    >
      <Textarea
        className="min-h-20 font-mono text-xs"
        value={text}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === "") {
            setLocalError(null);
            onChange(undefined);
            return;
          }
          try {
            const v = JSON.parse(e.target.value) as unknown;
            setLocalError(null);
            onChange(v);
          } catch {
            setLocalError("Not valid JSON yet.");
          }
        }}
      />
    </Field>
  );
}
