import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { verbBody } from "~/http/incident-api.server";
import type { BulkChangeInput } from "~/modules/incidents/schema";
import { bulkChangeIncidents } from "~/modules/incidents/service.server";

/**
 * POST /api/incidents/bulk { ids: [1, 2], change: "status" | "priority" | "assignee", status? ,
 * priority?, assigneeId? }: one change to up to 100 incidents, all or nothing (one id out of reach is
 * 404 INCIDENT_NOT_FOUND and nothing changes; an assignee who cannot reach one of them is 400
 * ASSIGNEE_NOT_ALLOWED). Each incident gets its own event. Answers `{ changed }`, the incidents whose
 * value was different. The body is checked by the verb (BulkChangeSchema), after its permission check.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return bulkChangeIncidents(ctx, verbBody<BulkChangeInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("POST"));
