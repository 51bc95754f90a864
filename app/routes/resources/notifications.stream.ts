import type { LoaderFunctionArgs } from "@remix-run/node";
import { notificationStreamResponse } from "~/http/notification-stream.server";

/**
 * GET /resources/notifications/stream: the signed-in user's new notifications and unread count as
 * server-sent events (session cookie or bearer token; Last-Event-ID resumes). See
 * app/http/notification-stream.server.ts.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return notificationStreamResponse(request, context);
}
