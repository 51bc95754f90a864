import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, listJson, methodNotAllowed } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { listAssignees } from "~/modules/users/queries.server";

const INVALID = "users:validation.invalid";
/** The most ids `entityIds` may hold. */
const MAX_ENTITY_IDS = 100;

/** Ids given as `name=1,2` and/or `name=1&name=2`; a value that is no id is a 400. */
function idsParam(params: URLSearchParams, name: string): number[] | undefined {
  const values = params.getAll(name);
  if (values.length === 0) return undefined;
  const parts = values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
  if (parts.length > MAX_ENTITY_IDS || parts.some((v) => !/^\d{1,10}$/.test(v))) {
    throw new ValidationError({ [name]: [INVALID] }, "errors.list.invalid", "INVALID_LIST_QUERY");
  }
  return parts.length ? [...new Set(parts.map(Number))] : undefined;
}

/**
 * GET /api/users/assignees?entityIds=1,2&q&page&size (any signed-in user): the people work can be
 * assigned to, users of the caller's entity who are neither archived nor disabled, by surname, as a
 * JSON array with X-Total-Count. `entityIds` (comma list or repeated) that leaves out the caller's
 * entity answers an empty list.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: ["surname"] as const, defaultSort: "surname", mode: "api" });
  const entityIds = idsParam(params, "entityIds");
  return listJson(await listAssignees(ctx, { entityIds, q: query.q, page: query.page, size: query.size }));
});

export const action = apiRoute(() => methodNotAllowed("GET"));
