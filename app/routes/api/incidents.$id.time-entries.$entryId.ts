import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { entryIdParam, workBody } from "~/http/work-api.server";
import type { TimeEntryInput } from "~/modules/time-costs/schema";
import { deleteTimeEntry, updateTimeEntry } from "~/modules/time-costs/service.server";

/**
 * PATCH /api/incidents/{id}/time-entries/{entryId}: changes the fields sent (the others are kept) and
 * answers `{ id }`; DELETE removes the entry. A technician changes their own entries only (403
 * NOT_YOUR_ENTRY); managers any within reach. An entry of another incident is 404 TIME_ENTRY_NOT_FOUND.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("PATCH, DELETE");
  const target = { incidentId: incidentIdParam(params) };
  const entryId = entryIdParam(params);
  if (request.method === "DELETE") return deleteTimeEntry(ctx, target, entryId);
  return updateTimeEntry(ctx, target, entryId, workBody<Partial<TimeEntryInput>>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PATCH, DELETE"));
