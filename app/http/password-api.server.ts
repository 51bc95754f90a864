import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseJson, requestLocale, toApiError } from "~/http/api.server";
import { passwordResetDeps } from "~/http/deps.server";
import { guard } from "~/modules/auth/guard.server";

/**
 * The action of a password call without a bearer token (SPEC.md section 7): guarded like a login,
 * POST only, the JSON body handed to `run` (which validates it), `{ responseCode: 0 }` when it
 * succeeds, the API's error answer otherwise.
 */
export function passwordPost(run: (deps: ReturnType<typeof passwordResetDeps>, body: unknown, args: ActionFunctionArgs) => Promise<unknown>) {
  return async (args: ActionFunctionArgs) => {
    const { request, context } = args;
    await guard(request, context);
    const locale = await requestLocale(request);
    if (request.method !== "POST") return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
    try {
      await run(passwordResetDeps(context), await parseJson(request, z.unknown()), args);
      return Response.json({ responseCode: 0 });
    } catch (error) {
      return toApiError(error, locale);
    }
  };
}
