import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { removeIncidentFile } from "~/modules/incidents/service.server";

/**
 * DELETE /api/incidents/{id}/files/{fileId}: removes a file of the incident (not a comment's
 * attachment). A file the incident does not hold is 400 FILE_NOT_FOUND ("The file could not be deleted").
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  await removeIncidentFile(ctx, incidentIdParam(params), params.fileId ?? "");
  return { responseCode: 0 };
});

export const loader = apiRoute(() => methodNotAllowed("DELETE"));
