import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotificationList } from "~/components/notifications/notification-list";
import { type IntentArgs, screenAction, screenLoader } from "~/http/screen.server";
import { toastHeader } from "~/http/toast.server";
import { isDomainError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { listNotifications } from "~/modules/notifications/queries.server";
import { markAllNotificationsRead, markNotificationsRead } from "~/modules/notifications/service.server";

/**
 * /notifications: the signed-in user's notifications, newest first (SPEC.md sections 2 and 3),
 * the unread filter in the URL, 25 a page by default; its two posts mark one as read, or all.
 */
export const loader = screenLoader(async ({ ctx, url, user }) => {
  const query = parseListQuery(url.searchParams, { sorts: ["created"], defaultSort: "created", defaultDir: "desc", mode: "screen" });
  const unreadOnly = url.searchParams.get("filter") === "unread";
  const page = await listNotifications(ctx, user.id, { unreadOnly, page: query.page, size: query.size });
  return { page, unreadOnly };
});

/** Back to the list as it was (filter, page), never elsewhere. */
function backTo(url: URL): string {
  const keep = new URLSearchParams();
  for (const name of ["filter", "page", "size"]) {
    const value = url.searchParams.get(name);
    if (value && /^[a-z0-9]{1,10}$/.test(value)) keep.set(name, value);
  }
  const search = keep.toString();
  return `/notifications${search ? `?${search}` : ""}`;
}

/** A mark: the verb, then back to the list with `toast`; a refused one is "Could not save" there. */
function mark(toast: string, verb: (args: IntentArgs) => Promise<unknown>) {
  return async (args: IntentArgs) => {
    let done = true;
    try {
      await verb(args);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      done = false;
    }
    const headers = { "Set-Cookie": await toastHeader(done ? { type: "success", key: toast } : { type: "error", key: "common:errors.couldNotSave" }) };
    return redirect(backTo(args.url), { headers });
  };
}

export const action = screenAction({
  intents: {
    "read-all": mark("notifications:toast.allMarkedRead", ({ ctx }) => markAllNotificationsRead(ctx)),
    read: mark("notifications:toast.markedRead", ({ ctx, user, formData }) => markNotificationsRead(ctx, user.id, { notificationDetailsIds: formData.getAll("detailsId") })),
  },
});

export default function NotificationsScreen() {
  const { page, unreadOnly } = useLoaderData<typeof loader>();
  return <NotificationList page={page} unreadOnly={unreadOnly} />;
}
