import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, sizeParam } from "~/http/incident-api.server";
import { MAX_PAGE_SIZE } from "~/lib/list-query";
import { EVENTS_PAGE } from "~/modules/incidents/constants";
import { listIncidentEvents } from "~/modules/incidents/queries.server";

/**
 * GET /api/incidents/{id}/events?size=: the latest `size` events (default and at most 100), newest
 * first, as a JSON array `[{ id, type, actor, oldValue, newValue, createdAt }]` with X-Total-Count.
 * Types (SPEC.md section 3): 0 created, 1 assigned, 2 status, 3 priority, 4 duplicate, 5 tag added,
 * 6 tag removed, 7 title, 8 description.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, params, ctx }) => {
  const id = incidentIdParam(params);
  const limit = sizeParam(new URL(request.url).searchParams, MAX_PAGE_SIZE, EVENTS_PAGE);
  const { items, total } = await listIncidentEvents(ctx, id, { limit });
  return Response.json(items, { headers: { "X-Total-Count": String(total) } });
});

export const action = apiRoute(() => methodNotAllowed("GET"));
