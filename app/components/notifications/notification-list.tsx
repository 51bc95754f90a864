import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager } from "~/components/lists/pager";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import type { Page } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { notificationLink } from "~/modules/notifications/present";
import type { NotificationItem } from "~/modules/notifications/queries.server";
import { useNotificationText } from "./format";

type Item = Omit<NotificationItem, "message"> & { message: Record<string, unknown> };

/** The notifications list: All / Unread only, mark all, each with its link and "mark as read" (plain posts). */
export function NotificationList({ page, unreadOnly }: { page: Page<Item>; unreadOnly: boolean }) {
  const { t } = useTranslation("notifications");
  const text = useNotificationText();
  const filters = [
    { key: "all", to: "/notifications", active: !unreadOnly, label: t("list.all") },
    { key: "unread", to: "/notifications?filter=unread", active: unreadOnly, label: t("list.unreadOnly") },
  ];
  const hasUnread = page.items.some((item) => !item.read) || unreadOnly;
  return (
    <section className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        {hasUnread && page.total > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <Button type="submit" variant="outline" size="sm">
              {t("list.markAllRead")}
            </Button>
          </Form>
        ) : null}
      </div>
      <nav aria-label={t("list.filter")} className="flex gap-2">
        {filters.map((f) => (
          <Link
            key={f.key}
            to={f.to}
            aria-current={f.active ? "page" : undefined}
            className={buttonVariants({ variant: f.active ? "default" : "outline", size: "sm" })}
          >
            {f.label}
          </Link>
        ))}
      </nav>
      {page.items.length === 0 ? (
        <p className="rounded-md border bg-background p-6 text-muted-foreground">{unreadOnly ? t("list.emptyUnread") : t("list.empty")}</p>
      ) : (
        <ul className="divide-y rounded-md border bg-background" data-testid="notification-list">
          {page.items.map((item) => {
            const link = notificationLink(item);
            const priority = text.priority(item);
            return (
              <li key={item.id} className={cn("flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between", !item.read && "bg-primary/5")}>
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    {!item.read ? <Badge variant="default">{t("list.unread")}</Badge> : <span className="sr-only">{t("list.read")}</span>}
                    <Link to={`/notification/${item.id}`} className={cn("break-words underline-offset-4 hover:underline", !item.read && "font-semibold")}>
                      {text.title(item)}
                    </Link>
                  </div>
                  <p className="text-sm text-muted-foreground">
                    {t("list.received")} {text.date(item.creationDate)}
                    {priority ? ` · ${priority}` : ""}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2">
                  {link ? (
                    <Link to={link} className={buttonVariants({ variant: "outline", size: "sm" })} reloadDocument={link.startsWith("/files/")}>
                      {item.incidentId ? t("list.openIncident") : link.startsWith("/files/") ? t("list.download") : link.startsWith("/view-task/") ? t("list.openTask") : t("list.openImport")}
                    </Link>
                  ) : null}
                  {!item.read ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="read" />
                      <input type="hidden" name="detailsId" value={item.notificationDetailsId} />
                      <Button type="submit" variant="ghost" size="sm" aria-label={`${t("list.markRead")}: ${text.title(item)}`}>
                        {t("list.markRead")}
                      </Button>
                    </Form>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {page.total > 0 ? <Pager page={page} /> : null}
    </section>
  );
}
