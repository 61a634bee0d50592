/**
 * The flow version document, as the domain uses it: one import for its schema
 * (`ZFlowVersion`, `TFlowVersion`), its JSON Schema and validation (`validateFlowVersion`).
 * The parts live where they belong:
 * - the document schema, parameter value schemas, step order: lib/engine/flow-document.ts
 *   (pure; the engine runs documents of this shape);
 * - every step type: lib/steps/<type>/definition.ts, listed in lib/steps/registry.ts, from
 *   which `ZStep` and the step catalogue are derived (lib/steps/step-schema.ts, catalogue.ts);
 * - validation of a whole document: lib/flows/validate-flow-version.ts;
 * - zod issues to field errors and JSON Pointers: lib/errors.
 * The format itself is described in docs/flow-format.md.
 *
 * Server-side: validation brings the expression compiler (MapLibre's style spec). Client
 * components import the schemas from lib/engine/flow-document.ts instead, which reaches only
 * step definitions (a test in lib/steps/registry.test.ts walks their imports).
 */
export {
  flowVersionJsonSchema,
  ZFlowVersion,
  type TColumn,
  type TFlowVersion,
  type TFlowVersionInput,
  type TInput,
  type TParameter,
} from "@/lib/engine/flow-document";
export { validateFlowVersion } from "@/lib/flows/validate-flow-version";
