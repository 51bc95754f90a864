import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotificationView } from "~/components/notifications/notification-view";
import { screenLoader, subjectById } from "~/http/screen.server";
import { getNotification } from "~/modules/notifications/queries.server";
import { openNotification } from "~/modules/notifications/service.server";

/** /notification/{id}: one notification in the reader's language; opening it marks it read (issue #14). */
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
