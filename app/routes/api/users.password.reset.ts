import { passwordPost } from "~/http/password-api.server";
import { resetPassword } from "~/modules/auth/password-reset.server";

/**
 * POST /api/users/password/reset { token, newPassword } (SPEC.md section 7, no bearer token):
 * 200 `{ responseCode: 0 }`, or 400 `{ code: "INVALID_TOKEN" | "WEAK_PASSWORD", message }` (a weak
 * password also lists the broken rules in `fieldErrors.newPassword`).
 */
export const action = passwordPost((deps, body) => resetPassword(deps, body));

export function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
}
