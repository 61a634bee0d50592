/**
 * The one action client every server action goes through (next-safe-action; the pattern of
 * dub's `apps/web/lib/actions/safe-action.ts`):
 *
 * - `actionClient`: no session (sign-in only).
 * - `authAction`: a signed-in user (`ctx.user`), checked against the database.
 * - `designerAction` / `adminAction`: also a member of the organization named by the
 *   input's `organization` slug with at least that role (`ctx.member`, a `TMemberScope`).
 *   Every such action's input schema includes `organization: z.string()`; the action
 *   uses `ctx.member.organizationId`, never the slug, for what it touches.
 *
 * Every action's input is first checked for what Postgres cannot store
 * (`assertStorable`, lib/errors/unstorable.ts): a NUL or an unpaired surrogate in a name is a
 * field error at its JSON Pointer (e.g. `/name`).
 *
 * Errors: an `AppError` thrown anywhere becomes `result.serverError` =
 * `{code, message, fieldErrors}` (`TActionError`: field errors keyed by JSON Pointer, as
 * the HTTP door's problem `errors`); anything else is logged and answered as `internal`
 * without internals. Input that fails the schema comes back as `result.validationErrors`
 * (flattened: `fieldErrors.<name>`).
 */
import "server-only";
import { createSafeActionClient } from "next-safe-action";
import { z } from "zod";
import { AppError, assertStorable, validationError, type TErrorCode } from "@/lib/errors";
import { requireMember, requireUser } from "@/lib/auth/session";
import type { TRole } from "@/lib/auth/roles";

export interface TActionError {
  code: TErrorCode;
  message: string;
  /** JSON Pointer of the input field (e.g. `/name`) → message. */
  fieldErrors: Record<string, string>;
}

export const actionClient = createSafeActionClient({
  defineMetadataSchema: () => z.object({ name: z.string() }),
  defaultValidationErrorsShape: "flattened",
  handleServerError(err, utils): TActionError {
    if (err instanceof AppError) {
      return { code: err.code, message: err.detail, fieldErrors: Object.fromEntries((err.errors ?? []).map((e) => [e.field, e.message])) };
    }
    console.error(`server action ${utils.metadata?.name ?? "(unnamed)"} failed`, err);
    return { code: "internal", message: "Something went wrong on our side. Try again.", fieldErrors: {} };
  },
}).use(async ({ clientInput, next }) => {
  // Names and documents Postgres could not store (NUL, unpaired surrogates, deep nesting) are refused before any action runs.
  assertStorable(clientInput instanceof FormData ? Object.fromEntries(clientInput) : clientInput);
  return next();
});

export const authAction = actionClient.use(async ({ next }) => {
  const user = await requireUser();
  return next({ ctx: { user } });
});

const ZOrganizationRef = z.object({ organization: z.string().min(1) });

function organizationOf(clientInput: unknown): string {
  const raw = clientInput instanceof FormData ? Object.fromEntries(clientInput) : clientInput;
  const parsed = ZOrganizationRef.safeParse(raw);
  if (!parsed.success) {
    throw validationError([{ field: "/organization", code: "required", message: "Organization is required." }], "The action names no organization.");
  }
  return parsed.data.organization;
}

function roleAction(role: TRole) {
  return authAction.use(async ({ clientInput, next }) => {
    const member = await requireMember({ organization: organizationOf(clientInput), role });
    return next({ ctx: { member } });
  });
}

/** Needs a designer (or admin) of the input's organization. */
export const designerAction = roleAction("designer");
/** Needs an admin of the input's organization. */
export const adminAction = roleAction("admin");
