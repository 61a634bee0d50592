/**
 * Whether a flow version can be offered to AI assistants as one MCP tool (design.md "MCP").
 *
 * A tool takes the flow's inputs and its parameters as top-level arguments, next to the
 * tool's own `wait_seconds` and `formats`. Over HTTP the two live in separate objects
 * (`inputs`, `parameters`), so a flow may name an input and a parameter alike; as one tool
 * argument list they would collide, and the call could not tell which one a value is for.
 * Such a flow cannot be exposed to AI: `aiToolCollisions` lists every clash, and
 * `assertAiToolCompatible` refuses with AppError `validation_failed` naming each one by JSON
 * Pointer into the flow version document (`/inputs/<i>/name`, `/parameters/<i>/name`), so
 * the design tool (publishing) and the console (the "Available to AI assistants" switch)
 * can show the message next to the field.
 */
import { validationError, type TFieldError } from "@/lib/errors";
import type { TFlowVersion } from "@/lib/flows/definition";

/** Argument names every Flow API tool has besides the flow's inputs and parameters. */
export const AI_TOOL_RESERVED_ARGUMENTS = ["wait_seconds", "formats"] as const;

export interface TAiToolCollision {
  name: string;
  /** JSON Pointers into the flow version of every declaration using `name`. */
  fields: string[];
  message: string;
}

/** Every argument name that more than one input, parameter or reserved argument would use. */
export function aiToolCollisions(flow: Pick<TFlowVersion, "inputs" | "parameters">): TAiToolCollision[] {
  const uses = new Map<string, string[]>();
  const add = (name: string, field: string) => uses.set(name, [...(uses.get(name) ?? []), field]);
  flow.inputs.forEach((input, i) => add(input.name, `/inputs/${i}/name`));
  flow.parameters.forEach((param, i) => add(param.name, `/parameters/${i}/name`));
  const out: TAiToolCollision[] = [];
  for (const [name, fields] of uses) {
    const reserved = (AI_TOOL_RESERVED_ARGUMENTS as readonly string[]).includes(name);
    if (fields.length < 2 && !reserved) continue;
    const what = fields.map((f) => (f.startsWith("/inputs/") ? "an input" : "a parameter")).join(" and ");
    out.push({
      name,
      fields,
      message: reserved
        ? `"${name}" is ${what} of the flow and also an argument every AI tool has; rename it to offer this API to AI assistants.`
        : `"${name}" names ${what}; an AI tool takes inputs and parameters side by side, so rename one of them to offer this API to AI assistants.`,
    });
  }
  return out;
}

/** Throws AppError `validation_failed` naming every collision (see module doc). */
export function assertAiToolCompatible(flow: Pick<TFlowVersion, "inputs" | "parameters">): void {
  const collisions = aiToolCollisions(flow);
  if (collisions.length === 0) return;
  const errors: TFieldError[] = collisions.flatMap((c) => c.fields.map((field) => ({ field, code: "ai_argument_collision", message: c.message })));
  throw validationError(
    errors,
    `This flow cannot be offered to AI assistants: ${collisions.map((c) => `"${c.name}"`).join(", ")} would be ${collisions.length === 1 ? "an ambiguous tool argument" : "ambiguous tool arguments"}.`,
  );
}
