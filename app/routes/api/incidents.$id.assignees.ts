import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, listJson, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { parseListQuery } from "~/lib/list-query";
import { listIncidentAssignees } from "~/modules/incidents/queries.server";

/**
 * GET /api/incidents/{id}/assignees?q=&page=&size=: the users the incident may be assigned to (active
 * users of the entity who reach its location), by surname, as a JSON array `[{ id, name, role }]` with
 * X-Total-Count. `q` searches the name and surname.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, params, ctx }) => {
  const id = incidentIdParam(params);
  const query = parseListQuery(new URL(request.url).searchParams, { sorts: ["name"], defaultSort: "name", mode: "api" });
  return listJson(await listIncidentAssignees(ctx, id, { q: query.q, page: query.page, size: query.size }));
});

export const action = apiRoute(() => methodNotAllowed("GET"));
