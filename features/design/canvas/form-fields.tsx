"use client";
/**
 * The controls of every form beside the canvas, on `FormField` (label, one control, hint and
 * the problems as its error): text, select and checkbox fields; `Problems` (messages not tied
 * to one control); `ColumnList` (a `<datalist>` of column names).
 */
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
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

/** A checkbox as `FormField`'s control. */
export const checkbox = (checked: boolean, onChange: (v: boolean) => void) => (
  <input type="checkbox" className="size-4 accent-primary" checked={checked} onChange={(e) => onChange(e.target.checked)} />
);

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
    <FormField id={props.id} label={props.label} hint={props.hint} error={props.problems?.join(" ")}>
      <Input value={props.value} onChange={(e) => props.onChange(e.target.value)} className={props.mono ? "font-mono" : undefined} autoComplete="off" />
    </FormField>
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
    <FormField id={props.id} label={props.label} error={props.problems?.join(" ")}>
      <NativeSelect value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <SelectOptions options={props.options} />
      </NativeSelect>
    </FormField>
  );
}

/** A checkbox under its label. */
export function CheckField(props: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <FormField id={props.id} label={props.label}>
      {checkbox(props.checked, props.onChange)}
    </FormField>
  );
}
