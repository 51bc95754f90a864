import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, created, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { TagInput } from "~/modules/incidents/schema";
import { addIncidentTag } from "~/modules/incidents/service.server";

/**
 * POST /api/incidents/{id}/tags { tag }: adds a tag (SPEC.md section 5: not empty, at most 20
 * characters, at most 3 per incident: a fourth is 400 TOO_MANY_TAGS; one already there, ignoring case,
 * is kept once): event 5. 201 with the changed incident's fields.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return created(await addIncidentTag(ctx, incidentIdParam(params), verbBody<TagInput>(request)));
});

export const loader = apiRoute(() => methodNotAllowed("POST"));
