import { isInputDatabaseError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/**
 * A loader or action that let a database error caused by its input escape (a NUL byte or an
 * out-of-range number reaching PostgreSQL) answers 400, never 500. Null for anything else.
 */
export function inputErrorResponse(error: unknown): Response | null {
  if (error instanceof Response || !isInputDatabaseError(error)) return null;
  logger().info({ err: error instanceof Error ? error.message : String(error) }, "input refused by the database");
  return new Response("Bad Request", { status: 400 });
}
