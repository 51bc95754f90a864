import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotificationView } from "~/components/notifications/notification-view";
import { notificationLoader } from "~/http/notifications.server";

/** /notification/{id}: one notification in the reader's language; opening it marks it read (issue #14). */
export const loader = (args: LoaderFunctionArgs) => notificationLoader(args);

export default function NotificationScreen() {
  const { notification } = useLoaderData<typeof loader>();
  return <NotificationView notification={notification} />;
}
