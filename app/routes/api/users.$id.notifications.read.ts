import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonBody, methodNotAllowed } from "~/http/api.server";
import { NotFoundError } from "~/lib/errors";
import { MarkReadSchema } from "~/modules/notifications/schema";
import { markNotificationsRead } from "~/modules/notifications/service.server";

/**
 * PATCH /api/users/{id}/notifications/read with a list of notification detail ids (a JSON array, or
 * `{ notificationDetailsIds }`; SPEC.md section 7): marks them read (one-way) and answers
 * `{ responseCode: 0 }`. Another user of the entity is 403 (before the body is read), another entity's
 * user 404.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PATCH") return methodNotAllowed("PATCH");
  const id = idParam(params.id);
  if (id === null) throw new NotFoundError("users:errors.notFound", "USER_NOT_FOUND");
  await markNotificationsRead(ctx, id, jsonBody(request, MarkReadSchema));
  return { responseCode: 0 };
});

export const loader = apiRoute(() => methodNotAllowed("PATCH"));
