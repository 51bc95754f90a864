import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseJson, requestLocale, toApiError } from "~/http/api.server";
import { guard } from "~/modules/auth/guard.server";
import { resetPassword } from "~/modules/auth/password-reset.server";
import { passwordResetDeps } from "~/http/deps.server";

/**
 * POST /api/users/password/reset { token, newPassword } (SPEC.md section 7, no bearer token):
 * 200 `{ responseCode: 0 }`, or 400 `{ code: "INVALID_TOKEN" | "WEAK_PASSWORD", message }` (a weak
 * password also lists the broken rules in `fieldErrors.newPassword`).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await guard(request, context);
  const locale = await requestLocale(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
  try {
    const body = await parseJson(request, z.unknown());
    await resetPassword(passwordResetDeps(context), body);
    return Response.json({ responseCode: 0 });
  } catch (error) {
    return toApiError(error, locale);
  }
}

export function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
}
