/**
 * Which workspace layers Try it offers per input, its default, and which an environment
 * cannot read yet. Try it reads every layer of the workspace; a published call only those its
 * environment may read. So the default is a fitting layer (lib/flows/input-geometry.ts) that
 * the shown `curl` call's environment can read, when there is one: the call then answers as
 * Try it did.
 */
import { layersFitting, type TReadableLayer } from "@/lib/flows/input-geometry";
import type { TInput } from "@/lib/flows/definition";

/** A workspace layer as Try it knows it: the environments (slugs) that may read it. */
export interface TTryItLayer extends TReadableLayer {
  environments: string[];
}

type TInputLike = Pick<TInput, "name" | "kind" | "geometry">;

/** The layers offered for `input` (those that fit, best first) and the default: the first that `environment` can read, else the first. */
export function layerChoice(layers: readonly TTryItLayer[], input: TInputLike, environment: string): { options: TTryItLayer[]; preferred: string | null } {
  const options = layersFitting(layers, input);
  const preferred = options.find((l) => l.environments.includes(environment)) ?? options[0];
  return { options, preferred: preferred?.id ?? null };
}

/** The layers that fit some input of the flow but `environment` cannot read, by name. */
export function unreadableIn(layers: readonly TTryItLayer[], inputs: readonly TInputLike[], environment: string): TTryItLayer[] {
  const fitting = new Set(inputs.flatMap((i) => layersFitting(layers, i).map((l) => l.id)));
  return layers.filter((l) => fitting.has(l.id) && !l.environments.includes(environment));
}

/**
 * The chosen layers (ids, by input) that `environment` cannot read, each once, in input order:
 * the published call would be refused there (422 `unknown_layer`), so Try it shows what an
 * admin must do instead of that call.
 */
export function chosenUnreadable(layers: readonly TTryItLayer[], chosen: readonly (string | null)[], environment: string): TTryItLayer[] {
  return [...new Set(chosen)].flatMap((id) => layers.find((l) => l.id === id && !l.environments.includes(environment)) ?? []);
}
