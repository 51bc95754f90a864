import { redirect } from "@remix-run/node";
import type { TitledHandle } from "~/components/shell/document-title";
import { type NotificationLike, notificationTitle } from "~/modules/notifications/present";
import { useLoaderData } from "@remix-run/react";
import { NotificationView } from "~/components/notifications/notification-view";
import { screenLoader, subjectById } from "~/http/screen.server";
import { getNotification } from "~/modules/notifications/queries.server";
import { openNotification } from "~/modules/notifications/service.server";

/** /notification/{id}: one notification in the reader's language; opening it marks it read. */
/** The notification's own words: "Incident #12 assigned to you: Leak · Notification · Caretaker". */
export const handle: TitledHandle = {
  documentTitle: (data: { notification?: NotificationLike }, t) => {
    if (!data.notification) return null;
    const { key, params } = notificationTitle(data.notification);
    return t(key, params);
  },
};

export const loader = screenLoader(subjectById(getNotification), async ({ ctx, subject: notification }) => {
  if (notification.read) return { notification };
  // Marked read, then shown by a second request, whose shell reads the new unread count (the bell is
  // read with the session, before this loader runs).
  await openNotification(ctx, notification.id);
  throw redirect(`/notification/${notification.id}`);
});

export default function NotificationScreen() {
  const { notification } = useLoaderData<typeof loader>();
  return <NotificationView notification={notification} />;
}
