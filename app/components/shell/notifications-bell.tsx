import { Link } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ToastData } from "~/components/ui/toast";
import { notificationTitle } from "~/modules/notifications/present";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { openNotificationStream, type StreamNotification } from "./notification-stream";
import { headerButton } from "./styles";
import { PageToasts } from "./toaster";

/**
 * The bell in the header: links to /notifications and shows the unread count. With JavaScript on it
 * follows the live notification stream (decision 028): the count changes as notifications arrive or
 * are read, and each new unread notification shows a toast (in the page's one stack) with the same
 * words as the notifications list, linking to its incident. Without JavaScript the count is the one the
 * page was rendered with.
 */
export function NotificationsBell({ unread, className }: { unread: number; className?: string }) {
  const { t } = useTranslation("shell");
  const [count, setCount] = useState(unread);
  const toasts = useLiveNotifications(setCount);
  // A navigation re-reads the count with the page.
  useEffect(() => setCount(unread), [unread]);
  const label = count > 0 ? t("bell.unread", { count }) : t("bell.none");
  return (
    <>
      <Link to="/notifications" aria-label={label} title={label} className={cn(headerButton, "relative", className)}>
        <Icon name="bell" />
        {count > 0 ? (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className="absolute right-1 top-1 flex h-[1.125rem] min-w-[1.125rem] items-center justify-center rounded-full bg-destructive px-1 text-[0.6875rem] font-bold leading-none text-destructive-foreground ring-2 ring-primary"
          >
            {count > 99 ? "99+" : count}
          </span>
        ) : null}
      </Link>
      <PageToasts toasts={toasts} />
    </>
  );
}

const MAX_TOASTS = 3;

/** Follows the stream while the component is mounted; returns the toasts of the notifications received. */
function useLiveNotifications(setCount: (unread: number) => void): ToastData[] {
  const { t } = useTranslation(["live", "notifications"]);
  const [toasts, setToasts] = useState<ToastData[]>([]);
  const latest = useRef({ t, setCount });
  latest.current = { t, setCount };
  const onNotification = useCallback((n: StreamNotification) => {
    // A notification read meanwhile (elsewhere, or just now) is no news.
    if (n.read) return;
    const { t } = latest.current;
    const { key, params } = notificationTitle(n);
    const toast: ToastData = {
      id: `notification-${n.id}`,
      type: "info",
      title: t(key, params),
      link: n.incidentId ? { href: `/incident/${n.incidentId}`, label: t("openIncident") } : { href: "/notifications", label: t("openNotifications") },
    };
    setToasts((list) => [...list.filter((x) => x.id !== toast.id), toast].slice(-MAX_TOASTS));
  }, []);
  useEffect(
    () =>
      openNotificationStream({
        onNotification,
        onCount: ({ unread }) => latest.current.setCount(unread),
      }),
    [onNotification],
  );
  return toasts;
}
