import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { ForbiddenError, isDomainError } from "~/lib/errors";

/**
 * The route params of a screen's address. A malformed id is the 404 page, like an unknown one: ids
 * are 1 to 9 digits (a serial column), anything else is not found before the database is asked
 * (`notFoundKey` names what was not found, "Page not found" unless said).
 */
export function routeId(params: LoaderFunctionArgs["params"], name = "id", notFoundKey?: string): number {
  const value = params[name];
  const id = value && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  if (!id) throw notFound(notFoundKey);
  return id;
}

/**
 * A loader's query, mapped to the error pages: not found (an unknown id, or another entity's) is the
 * 404 page; forbidden (e.g. a technician's room outside their facilities) goes to /forbidden, like the
 * form adapter. Anything else is thrown as it is.
 */
export async function orErrorPage<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if (error instanceof ForbiddenError) throw redirect("/forbidden");
    if (isDomainError(error) && error.status === 404) throw notFound(error.messageKey);
    throw error;
  }
}

/** The 404 page, naming what was not found ("Facility not found") when the service said so. */
export function notFound(messageKey = "common:notFound.title") {
  return Response.json({ messageKey }, { status: 404 });
}
