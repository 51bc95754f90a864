import { redirect } from "@remix-run/node";
import { ForbiddenError, isDatabaseUnavailableError, isDomainError, isInputDatabaseError, RETRY_AFTER_SECONDS } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/**
 * What a loader or action let escape, as the answer a screen gives for it, never a 500:
 * - a database error caused by its input (a NUL byte or an out-of-range number reaching PostgreSQL): 400;
 * - a domain error (a service refusing what the request asked: a filter naming another entity's
 *   facility, an id out of reach): forbidden goes to /forbidden, not found is the 404 page naming what
 *   was not found, the rest answer their status with their message key.
 *   A REST route (`api`) answers a forbidden one as 403 too, in JSON.
 * - the database not answering (restarting, stopped, a cut connection): 503 with a Retry-After, the
 *   message key of "temporarily unavailable" (the error page for a screen, JSON for the API).
 * Null for anything else (a real failure, or a Response already).
 */
export function escapedErrorResponse(error: unknown, options: { api?: boolean } = {}): Response | null {
  if (error instanceof Response) return null;
  if (isDatabaseUnavailableError(error)) {
    logger().warn({ err: error instanceof Error ? error.message : String(error) }, "database unavailable");
    return Response.json(
      { messageKey: "errors.temporarilyUnavailable", code: "SERVICE_UNAVAILABLE" },
      { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
    );
  }
  if (isDomainError(error)) {
    if (error instanceof ForbiddenError && !options.api) return redirect("/forbidden");
    return Response.json({ messageKey: error.messageKey, code: error.code }, { status: error.status });
  }
  if (!isInputDatabaseError(error)) return null;
  logger().info({ err: error instanceof Error ? error.message : String(error) }, "input refused by the database");
  return new Response("Bad Request", { status: 400 });
}
