import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { toastHeader } from "~/http/toast.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { isDomainError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { requireUser } from "~/modules/auth/guard.server";
import { getNotification, listNotifications } from "~/modules/notifications/queries.server";
import { markAllNotificationsRead, markNotificationsRead, openNotification } from "~/modules/notifications/service.server";
import { formDataOf } from "./form-action.server";

/**
 * The notification screens' transport (issue #14): /notifications (newest first, the unread filter in
 * the URL, 25 a page by default) with its two posts (mark one as read, mark all as read), and
 * /notification/{id} (opening one marks it read).
 */
export async function notificationsLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: ["created"], defaultSort: "created", defaultDir: "desc", mode: "screen" });
  const unreadOnly = params.get("filter") === "unread";
  const page = await listNotifications(ctx, user.id, { unreadOnly, page: query.page, size: query.size });
  return { page, unreadOnly };
}

/** Back to the list as it was (filter, page), never elsewhere. */
function backTo(request: Request): string {
  const url = new URL(request.url);
  const keep = new URLSearchParams();
  for (const name of ["filter", "page", "size"]) {
    const value = url.searchParams.get(name);
    if (value && /^[a-z0-9]{1,10}$/.test(value)) keep.set(name, value);
  }
  const search = keep.toString();
  return `/notifications${search ? `?${search}` : ""}`;
}

export async function notificationsAction({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  const intent = formData.get("intent");
  const to = backTo(request);
  try {
    if (intent === "read-all") {
      await markAllNotificationsRead(ctx);
      return redirect(to, { headers: { "Set-Cookie": await toastHeader({ type: "success", key: "notifications:toast.allMarkedRead" }) } });
    }
    if (intent === "read") {
      await markNotificationsRead(ctx, user.id, { notificationDetailsIds: formData.getAll("detailsId") });
      return redirect(to, { headers: { "Set-Cookie": await toastHeader({ type: "success", key: "notifications:toast.markedRead" }) } });
    }
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
  return redirect(to, { headers: { "Set-Cookie": await toastHeader({ type: "error", key: "common:errors.couldNotSave" }) } });
}

export async function notificationLoader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  const notification = await orErrorPage(getNotification(ctx, id));
  if (notification.read) return { notification };
  // Marked read, then shown by a second request, whose shell reads the new unread count (the bell is
  // read with the session, before this loader runs).
  await openNotification(ctx, id);
  throw redirect(`/notification/${id}`);
}
