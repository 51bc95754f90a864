import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, listJson, methodNotAllowed } from "~/http/api.server";
import { getT } from "~/i18n.server";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { notificationTitle, subjectIsItsTitle } from "~/modules/notifications/present";
import { listNotifications } from "~/modules/notifications/queries.server";
import { MARK_READ_MAX } from "~/modules/notifications/schema";

const INVALID = "common:validation.invalid";

/** `showOnlyUnread=true|false`; anything else is a 400. */
function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  if (value === null || value === "" || value === "false") return false;
  if (value === "true") return true;
  throw new ValidationError({ [name]: [INVALID] }, "errors.list.invalid", "INVALID_LIST_QUERY");
}

/** `notificationDetailsIds=1,2` and/or repeated; a value that is no id is a 400. */
function idsParam(params: URLSearchParams, name: string): number[] | null {
  const values = params.getAll(name);
  if (values.length === 0) return null;
  const parts = values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
  if (parts.length > MARK_READ_MAX || parts.some((v) => !/^\d{1,9}$/.test(v))) {
    throw new ValidationError({ [name]: [INVALID] }, "errors.list.invalid", "INVALID_LIST_QUERY");
  }
  return [...new Set(parts.map(Number))];
}

/**
 * GET /api/users/{id}/notifications?showOnlyUnread&notificationDetailsIds&page&size (SPEC.md section 7):
 * the caller's own notifications, newest first, as a JSON array (id, notificationDetailsId, read,
 * creationDate, type, subject, message, incidentId) with X-Total-Count; another user of the entity is
 * 403, another entity's user 404. An import's or an export's subject is its title in the reader's language,
 * as the screen shows it.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, params, ctx, locale }) => {
  const id = idParam(params.id);
  if (id === null) throw new NotFoundError("users:errors.notFound", "USER_NOT_FOUND");
  const search = new URL(request.url).searchParams;
  const query = parseListQuery(search, { sorts: ["creationDate"] as const, defaultSort: "creationDate", defaultDir: "desc", mode: "api" });
  const page = await listNotifications(ctx, id, {
    unreadOnly: flag(search, "showOnlyUnread"),
    detailsIds: idsParam(search, "notificationDetailsIds"),
    page: query.page,
    size: query.size,
  });
  const t = getT(locale);
  const titled = (n: (typeof page.items)[number]) => {
    const title = notificationTitle(n);
    return { ...n, subject: t(title.key, title.params) };
  };
  return listJson({ ...page, items: page.items.map((n) => (subjectIsItsTitle(n.type) ? titled(n) : n)) });
});

export const action = apiRoute(() => methodNotAllowed("GET"));
