import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed } from "~/http/api.server";
import { getRunningClock } from "~/modules/time-costs/queries.server";
import { userNotFound } from "~/modules/users/management.server";

/**
 * GET /api/users/{id}/clock: the caller's own running clock (start and stop, issue 62) as `{ startedAt,
 * incidentId, taskId, stoppable }`, or null when none runs. Another person of the entity is 403, another
 * entity's (or a malformed id) 404.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw userNotFound();
  return Response.json(await getRunningClock(ctx, id));
});

export const action = apiRoute(() => methodNotAllowed("GET"));
