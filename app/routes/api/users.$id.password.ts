import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonError, parseJson } from "~/http/api.server";
import { NotFoundError } from "~/lib/errors";
import { ChangePasswordSchema } from "~/modules/users/schema";
import { changePassword } from "~/modules/users/service.server";

/**
 * PATCH /api/users/{id}/password { oldPassword, newPassword }: only for yourself (another user of the
 * entity is 403, another entity's user 404). The new password must satisfy the password policy; the
 * caller's other sessions are signed out. Answers `{ responseCode: 0 }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx, user }) => {
  if (request.method !== "PATCH") return jsonError(405, "METHOD_NOT_ALLOWED", "Method Not Allowed");
  const id = idParam(params.id);
  if (id === null) throw new NotFoundError("settings:errors.userNotFound", "USER_NOT_FOUND");
  const body = await parseJson(request, ChangePasswordSchema);
  await changePassword(ctx, { userId: id, ...body, keepSessionId: user.sessionId });
  return { responseCode: 0 };
});

export const loader = apiRoute(() => jsonError(405, "METHOD_NOT_ALLOWED", "Method Not Allowed"));
