import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotificationList } from "~/components/notifications/notification-list";
import { notificationsAction, notificationsLoader } from "~/http/notifications.server";

/** /notifications: the signed-in user's notifications, newest first (SPEC.md sections 2 and 3, issue #14). */
export const loader = (args: LoaderFunctionArgs) => notificationsLoader(args);
export const action = (args: ActionFunctionArgs) => notificationsAction(args);

export default function NotificationsScreen() {
  const { page, unreadOnly } = useLoaderData<typeof loader>();
  return <NotificationList page={page} unreadOnly={unreadOnly} />;
}
