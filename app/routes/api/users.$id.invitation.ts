import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed } from "~/http/api.server";
import { resendInvitation, userNotFound } from "~/modules/users/management.server";

/**
 * POST /api/users/{id}/invitation (managers and administrators; no body): sends a new invitation to
 * a user who has not set a password yet, the earlier links stop working; answers the user. A user who
 * already set one is 409 ALREADY_VALIDATED.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const id = idParam(params.id);
  if (id === null) throw userNotFound();
  return resendInvitation(ctx, id);
});

export const loader = apiRoute(() => methodNotAllowed("POST"));
