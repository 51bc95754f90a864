import { orErrorPage, routeId } from "~/http/route-params.server";
import { screenLoader } from "~/http/screen.server";
import { ASSIGNEES_PAGE_SIZE, INCIDENT_NOT_FOUND } from "~/lib/incident-view";
import { intParam, searchParam } from "~/lib/list-query";
import { listIncidentAssignees } from "~/modules/incidents/queries.server";

/**
 * GET /incident/{id}/assignee-options?q=&page=: one JSON page of the users the incident may be
 * assigned to (those who reach its location), `{ items: [{ id, name, role }], total, page, size }`;
 * the assign dialog's search uses it when JavaScript runs. An incident out of reach is 404. The page
 * is the subject: it is read with the incident's reach checked.
 */
export const loader = screenLoader(
  ({ ctx, params, url }) =>
    orErrorPage(
      listIncidentAssignees(ctx, routeId(params, "id", INCIDENT_NOT_FOUND), {
        q: searchParam(url.searchParams),
        page: Math.min(intParam(url.searchParams, "page") ?? 1, 10_000),
        size: ASSIGNEES_PAGE_SIZE,
      }),
    ),
  ({ subject }) => Response.json(subject, { headers: { "Cache-Control": "private, no-store" } }),
);
