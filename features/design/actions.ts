"use server";
/**
 * Server actions of the design tool: `designerAction` checks the session and membership,
 * `requireWorkspace` the workspace named in the input; each calls one domain function. Domain
 * errors come back as `serverError` with field errors keyed by JSON Pointer.
 */
import { designerAction } from "@/lib/auth/action-client";
import { requireWorkspace } from "@/lib/auth/session";
import { validationError } from "@/lib/errors";
import { validateFlowVersion } from "@/lib/flows/validate-flow-version";
import { datasetColumns } from "@/lib/engine/result-columns";
import { createFlow, saveFlowVersion } from "@/lib/flows/save-flow-version";
import { deleteFlowPermanently, restoreFlow, trashFlow } from "@/lib/flows/trash-flow";
import { createFlowApi } from "@/lib/apis/create-flow-api";
import { publishRelease } from "@/lib/apis/publish-release";
import { deleteFlowApi } from "@/lib/apis/delete-flow-api";
import { unpublishFlowApi } from "@/lib/apis/unpublish-flow-api";
import { setFlowApiSource } from "@/lib/apis/set-flow-api-source";
import { tryItTarget } from "@/lib/runs/try-it-target";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { createRun } from "@/lib/runs/create-run";
import { cancelRun } from "@/lib/runs/cancel-run";
import type { TFieldError } from "@/lib/errors/field-error";
import {
  ZCreateApi,
  ZCreateFlow,
  ZFlowApiRef,
  ZFlowDocumentText,
  ZFlowRef,
  ZPublish,
  ZRunRef,
  ZSaveFlowVersion,
  ZSetApiSource,
  ZStartTry,
  ZUnpublish,
} from "@/features/design/schemas";

/** JSON text → value, or a field error at the document root naming line and column. */
function parseDocument(text: string): { ok: true; value: unknown } | { ok: false; errors: TFieldError[] } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, errors: [{ field: "", code: "invalid_json", message: `Not valid JSON: ${(e as Error).message}` }] };
  }
}

function documentOrThrow(text: string): unknown {
  const parsed = parseDocument(text);
  if (!parsed.ok) throw validationError(parsed.errors, "The flow document is not valid JSON.");
  return parsed.value;
}

/**
 * Live validation for the editor: every problem of the document, by the server's validator,
 * and the columns of each input and step as far as they are known (the canvas offers them
 * where an option names a column). Never throws for a faulty document.
 */
export const validateFlowDocumentAction = designerAction
  .metadata({ name: "validate-flow-document" })
  .inputSchema(ZFlowDocumentText)
  .action(async ({ parsedInput }) => {
    await requireWorkspace(parsedInput);
    const parsed = parseDocument(parsedInput.text);
    if (!parsed.ok) return { errors: parsed.errors, columns: {} };
    const v = validateFlowVersion(parsed.value);
    return { errors: v.ok ? [] : v.errors, columns: datasetColumns(parsed.value) };
  });

export const createFlowAction = designerAction
  .metadata({ name: "create-flow" })
  .inputSchema(ZCreateFlow)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    return createFlow(scope.designer, { name: parsedInput.name, description: parsedInput.description, definition: documentOrThrow(parsedInput.text) });
  });

export const saveFlowVersionAction = designerAction
  .metadata({ name: "save-flow-version" })
  .inputSchema(ZSaveFlowVersion)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    return saveFlowVersion(scope.designer, parsedInput.flowId, documentOrThrow(parsedInput.text));
  });

/** Moves one flow of the workspace (trash, restore, delete permanently). */
const flowMove = (name: string, move: (scope: { workspaceId: string }, flowId: string) => Promise<void>) =>
  designerAction
    .metadata({ name })
    .inputSchema(ZFlowRef)
    .action(async ({ parsedInput }) => move((await requireWorkspace(parsedInput)).designer, parsedInput.flowId));

export const trashFlowAction = flowMove("trash-flow", trashFlow);
export const restoreFlowAction = flowMove("restore-flow", restoreFlow);
export const deleteFlowAction = flowMove("delete-flow", deleteFlowPermanently);

export const createApiAction = designerAction
  .metadata({ name: "create-api" })
  .inputSchema(ZCreateApi)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    return createFlowApi(
      { organizationId: scope.organizationId, workspaceId: scope.workspace.id },
      { kind: parsedInput.kind, flowId: parsedInput.flowId, name: parsedInput.name, slug: parsedInput.slug },
    );
  });

export const publishAction = designerAction
  .metadata({ name: "publish-api" })
  .inputSchema(ZPublish)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    return publishRelease({ organizationId: scope.organizationId, workspaceId: scope.workspace.id }, parsedInput);
  });

/** Unpublish from one environment: callers there get 404; releases and runs stay. */
export const unpublishAction = designerAction
  .metadata({ name: "unpublish-api" })
  .inputSchema(ZUnpublish)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    return unpublishFlowApi({ organizationId: scope.organizationId, workspaceId: scope.workspace.id }, parsedInput);
  });

/** Delete an API no environment serves (refused, with the reason, while one does). */
export const deleteApiAction = designerAction
  .metadata({ name: "delete-api" })
  .inputSchema(ZFlowApiRef)
  .action(async ({ parsedInput }) => deleteFlowApi((await requireWorkspace(parsedInput)).designer, parsedInput.flowApiId));

/** Point an API whose source flow is gone at another flow of the workspace (its latest version). */
export const setApiSourceAction = designerAction
  .metadata({ name: "set-api-source" })
  .inputSchema(ZSetApiSource)
  .action(async ({ parsedInput }) => setFlowApiSource((await requireWorkspace(parsedInput)).designer, parsedInput));

/** Try it: the same request validation and layer checks as a published call, run as the designer. */
export const startTryAction = designerAction
  .metadata({ name: "start-try-it" })
  .inputSchema(ZStartTry)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    const target = await tryItTarget(scope.designer, parsedInput.flowApiId, parsedInput.flowVersionId);
    const request = await checkRunRequest(scope.designer, target, parsedInput.request);
    const { runId } = await createRun(scope.designer, target, request);
    return { runId };
  });

export const cancelTryAction = designerAction
  .metadata({ name: "cancel-try-it" })
  .inputSchema(ZRunRef)
  .action(async ({ parsedInput }) => {
    const scope = await requireWorkspace(parsedInput);
    const run = await cancelRun(scope.designer, parsedInput.runId);
    return { state: run.state };
  });
