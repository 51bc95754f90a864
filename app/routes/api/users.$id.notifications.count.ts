import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed } from "~/http/api.server";
import { NotFoundError } from "~/lib/errors";
import { getNotificationCount } from "~/modules/notifications/queries.server";

/**
 * GET /api/users/{id}/notifications/count (SPEC.md section 7): `{ total, unread }` of the caller's own
 * notifications; another user of the entity is 403, another entity's user 404.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw new NotFoundError("users:errors.notFound", "USER_NOT_FOUND");
  return getNotificationCount(ctx, id);
});

export const action = apiRoute(() => methodNotAllowed("GET"));
