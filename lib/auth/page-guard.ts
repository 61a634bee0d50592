/**
 * The session checks of lib/auth/session.ts as a page needs them: signed out → redirect to
 * `/sign-in?callbackUrl=<this page>`; a member whose role is too low → `forbidden()` (the
 * "not allowed" page, app/forbidden.tsx, HTTP 403); no such organization, workspace or
 * environment → `notFound()`. Every page calls one of these itself: layouts are not
 * re-rendered on every navigation, so a check in a layout alone would not hold.
 */
import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import {
  currentUser,
  requireEnvironment,
  requireMember,
  requireWorkspace,
  type TEnvironmentScope,
  type TMemberScope,
  type TSessionUser,
  type TWorkspaceScope,
} from "@/lib/auth/session";
import type { TRole } from "@/lib/auth/roles";

/** `/sign-in` with a callback to `path` (a same-origin path). */
export function signInPath(path: string): string {
  return `/sign-in?callbackUrl=${encodeURIComponent(path)}`;
}

function guard<T>(path: string, check: () => Promise<T>): Promise<T> {
  return check().catch((err) => {
    if (!(err instanceof AppError)) throw err;
    if (err.code === "unauthorized") redirect(signInPath(path));
    if (err.code === "forbidden") forbidden();
    notFound();
  });
}

/** The signed-in user; redirects to sign-in otherwise. */
export async function pageUser(path: string): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) redirect(signInPath(path));
  return user;
}

export function pageMember(path: string, opts: { organization: string; role: TRole }): Promise<TMemberScope> {
  return guard(path, () => requireMember(opts));
}

export function pageWorkspace(path: string, opts: { organization: string; workspace: string }): Promise<TWorkspaceScope> {
  return guard(path, () => requireWorkspace(opts));
}

export function pageEnvironment(path: string, opts: { organization: string; environment: string }): Promise<TEnvironmentScope> {
  return guard(path, () => requireEnvironment(opts));
}

/**
 * `value` awaited, or the "not found" page (`notFound()`, HTTP 404) when it is null or
 * undefined, or when looking it up threw `AppError` `not_found` (a page's one item).
 */
export async function orNotFound<T>(value: T | Promise<T>): Promise<NonNullable<T>> {
  const found = await Promise.resolve(value).catch((err) => {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  });
  return found ?? notFound();
}

/**
 * The path a layout was asked for (set by proxy.ts as `x-flow-path`; a layout does not
 * otherwise know which page below it is rendered), else `fallback`. Used only as the
 * sign-in callback, never for a decision: it is checked by `safeCallbackPath` on return.
 */
export async function requestedPath(fallback: string): Promise<string> {
  const value = (await headers()).get("x-flow-path");
  return value && value.startsWith("/") && !value.startsWith("//") ? value : fallback;
}
