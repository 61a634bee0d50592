"use server";
/** Server actions of the serving console (admins only, through `adminAction`). */
import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/auth/action-client";
import { requireEnvironment } from "@/lib/auth/session";
import { setCorsOrigins } from "@/lib/keys/set-cors-origins";
import { consolePath } from "@/features/shell/routes";
import { ZUpdateCorsOrigins } from "@/features/console/schemas";

/** Sets the browser origins allowed to call the environment's public API. */
export const updateCorsOriginsAction = adminAction
  .metadata({ name: "update-cors-origins" })
  .inputSchema(ZUpdateCorsOrigins)
  .action(async ({ parsedInput }) => {
    const scope = await requireEnvironment({ organization: parsedInput.organization, environment: parsedInput.environment });
    const origins = await setCorsOrigins(scope.environment.id, parsedInput.origins);
    revalidatePath(consolePath(scope.organizationSlug, scope.environment.slug, "settings"));
    return { origins };
  });
