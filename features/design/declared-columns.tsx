/** The columns (or properties) an input declares, shown under it in Try it so pasted rows or GeoJSON can follow them; nothing without declarations. */
import type { TColumn } from "@/lib/flows/definition";

export function DeclaredColumns({ columns, kind }: { columns?: readonly TColumn[]; kind: string }) {
  if (!columns?.length) return null;
  return (
    <div className="text-sm text-muted-foreground" data-testid="declared-columns">
      <span>{kind === "layer" ? "Each pasted feature's properties need: " : "Each row needs: "}</span>
      {columns.map((c, k) => (
        <span key={c.name}>
          {k > 0 ? ", " : null}
          <code className="text-foreground">{c.name}</code> ({c.type === "any" ? "text, number or boolean" : c.type}
          {c.required ? ", required" : ", optional"}
          {c.minimum !== undefined ? `, ≥ ${c.minimum}` : ""}
          {c.maximum !== undefined ? `, ≤ ${c.maximum}` : ""})
        </span>
      ))}
    </div>
  );
}
