import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { DuplicateInput } from "~/modules/incidents/schema";
import { markIncidentDuplicate } from "~/modules/incidents/service.server";

/**
 * POST /api/incidents/{id}/duplicate { duplicateOf: <short id> } ("#12", "12" or 12): marks this incident
 * as a duplicate of the one kept; its occurrences and reporters fold into it, and it is closed as
 * Rejected (event 4 on both, event 2 on this one). Refused with 400: an unknown number
 * (DUPLICATE_NOT_FOUND), itself (DUPLICATE_SELF), already a duplicate (ALREADY_DUPLICATE), a kept
 * incident that is itself a duplicate (DUPLICATE_OF_DUPLICATE). Answers `{ duplicate, kept }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return markIncidentDuplicate(ctx, incidentIdParam(params), verbBody<DuplicateInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("POST"));
