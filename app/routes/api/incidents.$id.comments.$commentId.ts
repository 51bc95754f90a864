import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { commentCall, commentIdParam, incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { CommentInput } from "~/modules/incidents/schema";
import { deleteIncidentComment, updateIncidentComment } from "~/modules/incidents/service.server";

/**
 * PUT /api/incidents/{id}/comments/{commentId} { body }: edits one's own comment (the "edited"
 * information is kept) and answers `{ id }`; DELETE removes one's own comment with its attachments.
 * Someone else's comment is 403 NOT_YOUR_COMMENT; an unknown one 404 COMMENT_NOT_FOUND.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("PUT, DELETE");
  const id = incidentIdParam(params);
  const commentId = commentIdParam(params);
  if (request.method === "DELETE") return commentCall("delete", () => deleteIncidentComment(ctx, id, commentId));
  return commentCall("update", () => updateIncidentComment(ctx, id, commentId, verbBody<CommentInput>(request)));
});

export const loader = apiRoute(() => methodNotAllowed("PUT, DELETE"));
