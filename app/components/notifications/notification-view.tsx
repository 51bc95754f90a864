import { Link } from "@remix-run/react";
import { BackLink } from "~/components/forms/form-parts";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";
import { notificationLink } from "~/modules/notifications/present";
import type { NotificationItem } from "~/modules/notifications/queries.server";
import { useNotificationText } from "./format";

type Item = Omit<NotificationItem, "message"> & { message: Record<string, unknown> };

/** One notification: its subject and message in the reader's language, and the way on. */
export function NotificationView({ notification }: { notification: Item }) {
  const { t } = useTranslation("notifications");
  const text = useNotificationText();
  const link = notificationLink(notification);
  const priority = text.priority(notification);
  const description = typeof notification.message.incidentDescription === "string" ? notification.message.incidentDescription : null;
  return (
    <article className="space-y-5">
      <BackLink to="/notifications">{t("view.back")}</BackLink>
      <h1 className="break-words text-2xl font-semibold">{text.title(notification)}</h1>
      <p className="text-sm text-muted-foreground">
        {t("list.received")} {text.date(notification.creationDate)}
      </p>
      <dl className="grid gap-3 rounded-md border bg-background p-4 sm:grid-cols-[10rem_1fr]">
        {priority ? (
          <>
            <dt className="font-medium">{t("view.priority")}</dt>
            <dd>{priority}</dd>
          </>
        ) : null}
        <dt className="font-medium">{t("view.description")}</dt>
        <dd className="whitespace-pre-wrap break-words">{description || t("view.noDescription")}</dd>
      </dl>
      {link ? (
        <Link to={link} className={buttonVariants()} reloadDocument={link.startsWith("/files/")}>
          {notification.incidentId ? t("list.openIncident") : link.startsWith("/files/") ? t("list.download") : link.startsWith("/view-task/") ? t("list.openTask") : t("list.openImport")}
        </Link>
      ) : null}
    </article>
  );
}
