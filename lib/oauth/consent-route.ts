/**
 * The consent form's POST (`/oauth/consent/{uid}/decision`, a plain HTML form: works without
 * JavaScript): checks the Origin (a cross-site POST is refused), the signed-in person and the
 * form token, records the decision (lib/oauth/consent.ts) and answers 303 to the
 * authorization server's resume URL. A refusal is answered as an RFC 9457 problem.
 */
import "server-only";
import { currentUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/http/problem";
import { decideConsent } from "@/lib/oauth/consent";
import { issuerOf } from "@/lib/oauth/provider";

/** Handles the POST (see module doc). */
export async function consentDecisionRoute(req: Request, uid: string): Promise<Response> {
  const instance = new URL(req.url).pathname;
  try {
    const issuer = issuerOf(req);
    const origin = req.headers.get("origin");
    if (!issuer || (origin !== null && origin !== issuer)) throw new AppError("forbidden", "This form can only be sent from this service's own page.");
    const user = await currentUser();
    if (!user) throw new AppError("unauthorized", "Sign in to continue.");
    const form = await req.formData();
    const formToken = String(form.get("form_token") ?? "");
    const allow = form.get("decision") === "allow";
    const returnTo = await decideConsent(
      issuer,
      uid,
      user.id,
      allow ? { allow, consumerId: String(form.get("consumer") ?? ""), formToken } : { allow, formToken },
    );
    return new Response(null, { status: 303, headers: { location: returnTo, "cache-control": "no-store" } });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return problem(err.code, err.detail, { instance });
  }
}
