"use client";
/**
 * The controls of every form beside the canvas: `Field` (label, one control, hint and
 * problems, with `aria-invalid` and `aria-describedby` wired) and on it text, select and
 * checkbox fields; `Problems`; `ColumnList` (a `<datalist>` of column names).
 */
import { cloneElement, type ReactElement, type ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";

export type TOption = { value: string; label: string };

/** The messages about a field, or nothing. */
export function Problems({ id, list }: { id?: string; list: string[] }) {
  if (list.length === 0) return null;
  return (
    <p id={id} className="text-xs text-destructive dark:text-red-300">
      {list.join(" ")}
    </p>
  );
}

/** The column names a text field offers (`list={id}` on the input), or nothing. */
export function ColumnList({ id, columns }: { id: string; columns: string[] | null }) {
  if (!columns?.length) return null;
  return (
    <datalist id={id}>
      {columns.map((c) => (
        <option key={c} value={c} />
      ))}
    </datalist>
  );
}

/** A label, one control (given `id`, `aria-invalid`, `aria-describedby`), a hint and problems; `inline`: a checkbox before its label. */
export function Field(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  problems?: string[];
  inline?: boolean;
  labelClassName?: string;
  children: ReactElement<{ id?: string; "aria-invalid"?: boolean; "aria-describedby"?: string }>;
}) {
  const { id, hint, problems = [] } = props;
  const control = cloneElement(props.children, {
    id,
    "aria-invalid": problems.length > 0 || undefined,
    "aria-describedby": [hint ? `${id}-hint` : "", problems.length ? `${id}-problems` : ""].filter(Boolean).join(" ") || undefined,
  });
  const label = (
    <Label htmlFor={id} className={props.labelClassName}>
      {props.label}
    </Label>
  );
  return (
    <div className="grid gap-1">
      {props.inline ? (
        <div className="flex items-center gap-2">
          {control}
          {label}
        </div>
      ) : (
        <>
          {label}
          {control}
        </>
      )}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <Problems id={`${id}-problems`} list={problems} />
    </div>
  );
}

/** A one-line text field. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  problems?: string[];
  mono?: boolean;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} problems={props.problems}>
      <Input value={props.value} onChange={(e) => props.onChange(e.target.value)} className={props.mono ? "font-mono" : undefined} autoComplete="off" />
    </Field>
  );
}

/** A select of fixed options. */
export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  options: readonly TOption[];
  onChange: (v: string) => void;
  problems?: string[];
}) {
  return (
    <Field id={props.id} label={props.label} problems={props.problems}>
      <NativeSelect value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <SelectOptions options={props.options} />
      </NativeSelect>
    </Field>
  );
}

/** A checkbox before its label. */
export function CheckField(props: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <Field id={props.id} label={props.label} inline>
      <input type="checkbox" className="size-4 accent-primary" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
    </Field>
  );
}
