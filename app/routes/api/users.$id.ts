import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { decodeDataUrl } from "~/modules/entities/schema";
import { archiveUser, updateUser, userNotFound } from "~/modules/users/management.server";
import { getUser } from "~/modules/users/queries.server";
import { type ArchiveUserInput, PutUserBodySchema, type UpdateOwnProfileInput } from "~/modules/users/schema";

const INVALID_FILE_DATA = "settings:files.invalidData";
const INVALID = "users:validation.invalid";

/** `incidentsUserId` and `plannedMaintenanceUserId` from the query: absent or empty is 0 (unassigned). */
function successorParams(params: URLSearchParams): ArchiveUserInput {
  const errors: Record<string, string[]> = {};
  const read = (name: "incidentsUserId" | "plannedMaintenanceUserId") => {
    const values = params.getAll(name);
    if (values.length === 0 || (values.length === 1 && values[0] === "")) return 0;
    if (values.length === 1 && /^\d{1,10}$/.test(values[0])) return Number(values[0]);
    errors[name] = [INVALID];
    return 0;
  };
  const input = { incidentsUserId: read("incidentsUserId"), plannedMaintenanceUserId: read("plannedMaintenanceUserId") };
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return input;
}

/**
 * GET /api/users/{id}: the user, for managers and administrators; every person reads their own profile
 * (a technician too). Another entity's id is 404 USER_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw userNotFound();
  return getUser(ctx, id);
});

/**
 * PUT /api/users/{id} { name, surname, status, role, language, receiveNotification, linkedObjects,
 * notificationSettings, oldPicture, newPicture, updatePicture } answers the user (the email is the
 * login and is not changed). DELETE /api/users/{id}?incidentsUserId=&plannedMaintenanceUserId=
 * archives the user, giving their Pending and In Progress incidents, and their planned maintenance and
 * pending tasks, to the chosen users (0 or absent: unassigned), and answers `{ incidentsReassigned,
 * tasksReassigned, plannedMaintenancesReassigned }`. Nobody changes their own role or status or
 * archives themselves, nor the entity's last administrator (409). A technician updates only their own
 * profile (name, language, notifications, picture; not role, status or links: 409 SELF).
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw userNotFound();
  if (request.method === "DELETE") {
    return archiveUser(ctx, id, deferred(async () => successorParams(new URL(request.url).searchParams)));
  }
  const input = deferred(async (): Promise<UpdateOwnProfileInput> => {
    const { oldPicture: _oldPicture, newPicture, ...fields } = await parseJson(request, PutUserBodySchema);
    if (!fields.updatePicture || newPicture == null) return { ...fields, newPicture: null };
    const bytes = decodeDataUrl(newPicture);
    if (!bytes) throw new ValidationError({ newPicture: [INVALID_FILE_DATA] });
    return { ...fields, newPicture: { bytes, name: "picture" } };
  });
  return updateUser(ctx, id, input);
});
