import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseJson, requestLocale, toApiError } from "~/http/api.server";
import { guard } from "~/modules/auth/guard.server";
import { requestPasswordReset } from "~/modules/auth/password-reset.server";
import { passwordResetDeps } from "~/http/deps.server";

/**
 * POST /api/users/password { email }: starts a password reset (SPEC.md section 7, no bearer token).
 * Always 200 `{ responseCode: 0 }`, whether or not the address has an account; 400 for an invalid body.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await guard(request, context);
  const locale = await requestLocale(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
  try {
    const body = await parseJson(request, z.unknown());
    await requestPasswordReset(passwordResetDeps(context), body, context.clientAddress);
    return Response.json({ responseCode: 0 });
  } catch (error) {
    return toApiError(error, locale);
  }
}

export function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
}
