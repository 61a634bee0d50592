"use client";
/**
 * A number or integer option of a step (see schema-field.tsx). It keeps its own text, so a
 * half-typed number (`1.`, `-`) stays as typed while the document holds the last number it
 * meant; a change made elsewhere (undo, the JSON view) replaces the text.
 */
import { useEffect, useState } from "react";
import { Input } from "@/components/ui/input";
import { Field } from "@/features/design/canvas/form-fields";
import { optionLabel, schemaHint, typeOf, type TSchemaFieldProps } from "@/features/design/canvas/field-schema";

/** A number field for a number or integer option. */
export function NumberField(props: TSchemaFieldProps) {
  const { value, onChange } = props;
  const [text, setText] = useState(typeof value === "number" ? String(value) : "");
  // Follow changes made elsewhere (undo, the JSON view) unless the text already means that value.
  useEffect(() => {
    if ((text === "" ? undefined : Number(text)) !== value) setText(typeof value === "number" ? String(value) : "");
  }, [value]);
  return (
    <Field id={props.id} label={optionLabel(props)} hint={schemaHint(props.schema)} problems={props.ctx.problemsAt(props.pointer)}>
      <Input
        type="number"
        inputMode="decimal"
        step={typeOf(props.schema) === "integer" ? 1 : "any"}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = e.target.value === "" ? undefined : Number(e.target.value);
          if (n === undefined || Number.isFinite(n)) onChange(n);
        }}
      />
    </Field>
  );
}
