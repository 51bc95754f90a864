import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, jsonBody, listJson, methodNotAllowed } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { createUser } from "~/modules/users/management.server";
import { listUsers, USER_SORTS, type UserFilters } from "~/modules/users/queries.server";
import { CreateUserSchema } from "~/modules/users/schema";

/** Reads `role` (1, 2, 3) and `status` (1, 2, 3); anything else is a 400 like a bad list parameter. */
function userFilters(params: URLSearchParams): UserFilters {
  const errors: Record<string, string[]> = {};
  const read = (name: "role" | "status") => {
    const values = params.getAll(name);
    if (values.length === 0) return null;
    if (values.length === 1 && /^[123]$/.test(values[0])) return Number(values[0]);
    errors[name] = [`users:validation.${name}`];
    return null;
  };
  const filters = { role: read("role"), status: read("status") };
  if (Object.keys(errors).length) throw new ValidationError(errors, "errors.list.invalid", "INVALID_LIST_QUERY");
  return filters;
}

/**
 * GET /api/users?page&size&sort&dir&q&role&status (managers and administrators): the users of the
 * caller's entity, archived ones left out, as a JSON array with X-Total-Count. `sort` is one of
 * USER_SORTS (default `name`); `role` and `status` filter (1, 2 or 3).
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: USER_SORTS, defaultSort: "name", mode: "api" });
  return listJson(await listUsers(ctx, query, userFilters(params)));
});

/**
 * POST /api/users/ { name, surname, role, email, language, linkedEntityId, linkedObjects:
 * { facilityIds, buildingIds }, receiveNotification?, notificationSettings? } (managers and
 * administrators; the administrator role only by an administrator): invites the user, who stays
 * "inactive (not yet validated)" until they follow the emailed link. 201 with the user; an address
 * already in use is 409 EMAIL_IN_USE.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createUser(ctx, jsonBody(request, CreateUserSchema)));
});
