import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, methodNotAllowed } from "~/http/api.server";
import { commentBody, commentCall, incidentIdParam, newestFirstParam, sizeParam } from "~/http/incident-api.server";
import { MAX_PAGE_SIZE } from "~/lib/list-query";
import { COMMENTS_PAGE } from "~/modules/incidents/constants";
import { listIncidentComments } from "~/modules/incidents/queries.server";
import { postIncidentComment } from "~/modules/incidents/service.server";

/**
 * GET /api/incidents/{id}/comments?size=&dir=: the latest `size` comments (default 50, at most 100),
 * oldest first (`dir=desc`: newest first), as a JSON array `[{ id, body, author: { id, name },
 * createdAt, editedAt, editedBy, files, own }]` with X-Total-Count (every comment). Deleted comments are
 * left out.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, params, ctx }) => {
  const id = incidentIdParam(params);
  const query = new URL(request.url).searchParams;
  const limit = sizeParam(query, MAX_PAGE_SIZE, COMMENTS_PAGE);
  const newestFirst = newestFirstParam(query, false);
  const { items, total } = await listIncidentComments(ctx, id, { limit, newestFirst });
  return Response.json(items, { headers: { "X-Total-Count": String(total) } });
});

/**
 * POST /api/incidents/{id}/comments: multipart (`body`, attachments in `files`) or JSON `{ body,
 * files?: [{ name, data }] }` (`data` a base64 data URL). The text is required (SPEC.md section 5);
 * at most 10 attachments. 201 with `{ id }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const id = incidentIdParam(params);
  return created(await commentCall("post", () => postIncidentComment(ctx, id, commentBody(request, ctx))));
});
