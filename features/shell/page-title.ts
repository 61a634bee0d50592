/**
 * Each page's `<title>` (WCAG 2.4.2 Page Titled): the page, then where it is, most specific
 * first, e.g. "Keys · Production · Console" or "Cities in area · APIs · Demo workspace · Design";
 * the root layout's template adds " · Flow API service". The titles of the design tool and the
 * console name the workspace or environment, and the page's one item (a flow, an API, a
 * layer, a run), only for a user who may open the page: the same check as the page, so a
 * title never tells a non-member a name; otherwise the title of what the page shows instead
 * ("Sign in", "Not allowed", "Page not found").
 */
import "server-only";
import type { Metadata } from "next";
import { requireEnvironment, requireWorkspace, type TEnvironmentScope, type TWorkspaceScope } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { CONSOLE_SECTIONS, DESIGN_SECTIONS, type TConsoleSection, type TDesignSection } from "@/features/shell/routes";

type TPart = string | null | undefined;

/** The parts joined by " · " (empty parts left out). */
export function pageTitle(...parts: TPart[]): Metadata {
  return { title: parts.filter((x): x is string => Boolean(x)).join(" · ") };
}

/** The title of what a page shows when its check or its item lookup fails. */
function titleOfRefusal(err: unknown): Metadata {
  if (!(err instanceof AppError)) throw err;
  if (err.code === "unauthorized") return pageTitle("Sign in");
  if (err.code === "forbidden") return pageTitle("Not allowed");
  return pageTitle("Page not found");
}

/** Looks up the page's item (its name), or null when there is none: "Page not found". */
type TItem<S> = (scope: S) => Promise<TPart> | TPart;

async function titled<S>(check: () => Promise<S>, item: TItem<S> | undefined, place: (scope: S) => TPart[]): Promise<Metadata> {
  try {
    const scope = await check();
    const name = item ? await item(scope) : null;
    if (item && !name) return pageTitle("Page not found");
    return pageTitle(name, ...place(scope));
  } catch (err) {
    return titleOfRefusal(err);
  }
}

/** A design tool page: "[item ·] Section · Workspace · Design". */
export function designTitle(p: { organization: string; workspace: string }, section: TDesignSection, item?: TItem<TWorkspaceScope>): Promise<Metadata> {
  const label = DESIGN_SECTIONS.find((s) => s.slug === section)!.label;
  return titled(
    () => requireWorkspace(p),
    item,
    (scope) => [label, scope.workspace.name, "Design"],
  );
}

/** A console page: "[item ·] Section · Environment · Console". */
export function consoleTitle(p: { organization: string; environment: string }, section: TConsoleSection, item?: TItem<TEnvironmentScope>): Promise<Metadata> {
  const label = CONSOLE_SECTIONS.find((s) => s.slug === section)!.label;
  return titled(
    () => requireEnvironment(p),
    item,
    (scope) => [label, scope.environment.name, "Console"],
  );
}
