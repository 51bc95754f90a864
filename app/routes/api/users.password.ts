import { passwordPost } from "~/http/password-api.server";
import { requestPasswordReset } from "~/modules/auth/password-reset.server";

/**
 * POST /api/users/password { email }: starts a password reset (SPEC.md section 7, no bearer token).
 * Always 200 `{ responseCode: 0 }`, whether or not the address has an account; 400 for an invalid body.
 */
export const action = passwordPost((deps, body, { context }) => requestPasswordReset(deps, body, context.clientAddress));

export function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
}
