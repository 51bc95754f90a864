import { Link } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ToastData } from "~/components/ui/toast";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { openNotificationStream, type StreamNotification } from "./notification-stream";
import { headerButton } from "./styles";
import { LocalizedToaster } from "./toaster";

/**
 * The bell in the header: links to /notifications and shows the unread count. With JavaScript on it
 * follows the live notification stream (decision 029): the count changes as notifications arrive or
 * are read, and each new notification shows a toast linking to its incident. Without JavaScript the
 * count is the one the page was rendered with.
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
      <LocalizedToaster toasts={toasts} />
    </>
  );
}

/** What a notification type is called in a toast (SPEC.md section 3's types, grouped). */
function typeGroup(type: number): string {
  switch (type) {
    case 0:
      return "incidentCreated";
    case 1:
      return "incidentAssigned";
    case 2:
      return "incidentUnassigned";
    case 3:
      return "incidentStatusUpdated";
    case 4:
      return "incidentNewComment";
  }
  if (type >= 5 && type <= 12) return type % 2 === 1 ? "importSuccess" : "importFailure";
  if (type >= 13) return "exportSuccess";
  return "other";
}

const MAX_TOASTS = 3;

/** Follows the stream while the component is mounted; returns the toasts of the notifications received. */
function useLiveNotifications(setCount: (unread: number) => void): ToastData[] {
  const { t } = useTranslation("live");
  const [toasts, setToasts] = useState<ToastData[]>([]);
  const latest = useRef({ t, setCount });
  latest.current = { t, setCount };
  const onNotification = useCallback((n: StreamNotification) => {
    const { t } = latest.current;
    const toast: ToastData = {
      id: `notification-${n.id}`,
      type: "info",
      title: t(`type.${typeGroup(n.type)}`),
      description: n.subject,
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
