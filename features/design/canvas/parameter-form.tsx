"use client";
/** The form of a parameter node: type, default, range or values, required. Changing the type keeps only name, required and description. */
import { CheckField, SelectField, TextField } from "@/features/design/canvas/form-fields";
import type { TNodeForm } from "@/features/design/canvas/node-form";

const PARAM_TYPES = ["number", "integer", "string", "boolean", "enum"].map((t) => ({ value: t, label: t }));
const BOOLEAN_DEFAULTS = [
  { value: "", label: "None" },
  { value: "true", label: "true" },
  { value: "false", label: "false" },
];

/** A parameter's type, default, range or values, and whether it is required. */
export function ParameterForm({ f }: { f: TNodeForm }) {
  const { item, fid, problemsAt } = f;
  const type = String(item.type ?? "");
  const numeric = type === "number" || type === "integer";
  const shown = (k: string) => (item[k] === undefined ? "" : String(item[k]));
  const numberKey = (k: string, label: string) => (
    <TextField
      id={fid(k)}
      label={`${label} (optional)`}
      value={shown(k)}
      onChange={(v) => f.setKey(k, v.trim() === "" || !Number.isFinite(Number(v)) ? undefined : Number(v))}
      problems={problemsAt(`/${k}`)}
    />
  );
  return (
    <>
      <SelectField
        id={fid("type")}
        label="Type"
        value={type}
        options={PARAM_TYPES}
        // Keys set to undefined are left out of the document's text.
        onChange={(v) =>
          f.set({ name: item.name, type: v, required: item.required, description: item.description, values: v === "enum" ? ["a", "b"] : undefined })
        }
        problems={problemsAt("/type")}
      />
      {type === "boolean" ? (
        <SelectField
          id={fid("default")}
          label="Default (optional)"
          value={shown("default")}
          options={BOOLEAN_DEFAULTS}
          onChange={(v) => f.setKey("default", v === "" ? undefined : v === "true")}
          problems={problemsAt("/default")}
        />
      ) : (
        <TextField
          id={fid("default")}
          label="Default (optional)"
          value={shown("default")}
          onChange={(v) => f.setKey("default", v === "" ? undefined : numeric && Number.isFinite(Number(v)) ? Number(v) : v)}
          problems={problemsAt("/default")}
        />
      )}
      {numeric ? (
        <>
          {numberKey("minimum", "Minimum")}
          {numberKey("exclusiveMinimum", "More than")}
          {numberKey("maximum", "Maximum")}
        </>
      ) : null}
      {type === "enum" ? (
        <TextField
          id={fid("values")}
          label="Values (comma-separated)"
          value={Array.isArray(item.values) ? item.values.join(", ") : ""}
          onChange={(v) =>
            f.setKey(
              "values",
              v
                .split(",")
                .map((x) => x.trim())
                .filter(Boolean),
            )
          }
          problems={problemsAt("/values")}
        />
      ) : null}
      <CheckField
        id={fid("required")}
        label="Required (the caller must set it)"
        checked={item.required === true}
        onChange={(v) => f.setKey("required", v ? true : undefined)}
      />
    </>
  );
}
