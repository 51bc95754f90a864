import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, created, methodNotAllowed } from "~/http/api.server";
import { filesBody, incidentIdParam } from "~/http/incident-api.server";
import { addIncidentFiles } from "~/modules/incidents/service.server";

/**
 * POST /api/incidents/{id}/files: multipart (`files`) or JSON `{ files: [{ name, data }] }` (`data` a
 * base64 data URL): adds images or documents to the incident (at least one, at most 10; format and
 * size checked by content). 201 with `{ ids }`, the stored files' ids (served at /files/{id}).
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return created(await addIncidentFiles(ctx, incidentIdParam(params), filesBody(request, ctx)));
});

export const loader = apiRoute(() => methodNotAllowed("POST"));
