import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { removeIncidentTag } from "~/modules/incidents/service.server";

/**
 * DELETE /api/incidents/{id}/tags/{tag}: removes the tag (matched ignoring case; URL-encoded in the
 * address): event 6. Removing a tag the incident does not carry changes nothing. Answers the
 * incident's fields.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return removeIncidentTag(ctx, incidentIdParam(params), { tag: params.tag ?? "" });
});

export const loader = apiRoute(() => methodNotAllowed("DELETE"));
