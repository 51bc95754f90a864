import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, listJson, methodNotAllowed } from "~/http/api.server";
import { parseListQuery } from "~/lib/list-query";
import { INCIDENT_SORTS } from "~/modules/incidents/constants";
import { parseIncidentFilters } from "~/modules/incidents/filters";
import { listIncidents } from "~/modules/incidents/queries.server";

/**
 * GET /api/incidents?page&size&sort&dir&q&status&priority&assignee&type&facility&building&room&tag&from&to:
 * the incidents the caller reaches (administrators their entity; managers and technicians their linked
 * facilities and buildings and what is assigned to them), as a JSON array with X-Total-Count (and
 * X-Total-Count-Capped when a search counted up to 1,000). `sort` is one of createdAt (default; newest
 * first unless `dir=asc`), title, priority, status, assignee, occurrences, shortId, due (the earlier due
 * time of the running service-level clocks, incidents without one last in both directions) (ascending
 * unless `dir=desc`). Filters as on the
 * /incidents screen: `status` and `priority` repeat or take commas (`priority=none` is Not Selected),
 * `assignee` is a user id, `me` or `none`, `tag` repeats (all must match), `from`/`to` are days
 * (YYYY-MM-DD, in the entity's time zone). An unreadable parameter is 400 INVALID_LIST_QUERY naming it.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  // Newest first by default; any other sort ascending unless `dir` says otherwise.
  const defaultDir = (params.get("sort") ?? "createdAt") === "createdAt" ? "desc" : "asc";
  const query = parseListQuery(params, { sorts: INCIDENT_SORTS, defaultSort: "createdAt", defaultDir, mode: "api" });
  const filters = parseIncidentFilters(params, { strict: true });
  return listJson(await listIncidents(ctx, query, filters));
});

export const action = apiRoute(() => methodNotAllowed("GET"));
