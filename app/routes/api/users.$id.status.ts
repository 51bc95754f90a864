import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonBody, methodNotAllowed } from "~/http/api.server";
import { setUserStatus, userNotFound } from "~/modules/users/management.server";
import { SetUserStatusSchema } from "~/modules/users/schema";

/**
 * PATCH /api/users/{id}/status { newStatus: 2 | 3 } (managers and administrators): enables or
 * disables the user and answers them. A disabled user's sessions end at once (their access token
 * fails on the next request, their refresh tokens are revoked); enabling a user who never set a
 * password keeps them "inactive (not yet validated)".
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PATCH") return methodNotAllowed("PATCH");
  const id = idParam(params.id);
  if (id === null) throw userNotFound();
  return setUserStatus(ctx, id, jsonBody(request, SetUserStatusSchema));
});

export const loader = apiRoute(() => methodNotAllowed("PATCH"));
