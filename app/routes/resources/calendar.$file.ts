import type { LoaderFunctionArgs } from "@remix-run/node";
import { ownHeaders } from "~/http/answer-headers.server";
import { publicOrigin } from "~/http/public-url.server";
import { calendarFeed } from "~/modules/maintenance/calendar-feed.server";

/**
 * GET /calendar/{token}.ics: the maintenance tasks of the person holding the token, as iCalendar
 * (RFC 5545) for calendar applications to subscribe to (decision 051). No session: the token is the
 * credential. A wrong, reset or malformed token, or an address without `.ics`, is 404 and changes
 * nothing.
 */
/** The feed's caching and referrer policy also reach `/calendar/{token}.ics.data`. */
export const headers = ownHeaders;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  const token = file.endsWith(".ics") ? file.slice(0, -4) : "";
  const body = token ? await calendarFeed(context.runtime.database.db, token, { appUrl: publicOrigin({ request, context }) }) : null;
  if (body === null) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="caretaker-tasks.ics"',
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}
