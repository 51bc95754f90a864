import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { notificationPriority, notificationTitle, type NotificationLike } from "~/modules/notifications/present";
import { useDates } from "~/lib/use-dates";

/** A notification's title in the page's language. */
export function useNotificationText() {
  const { t } = useTranslation("notifications");
  const dates = useDates();
  return useMemo(() => {
    return {
      title(n: NotificationLike) {
        const { key, params } = notificationTitle(n);
        return t(key, params);
      },
      priority(n: NotificationLike) {
        const key = notificationPriority(n);
        return key ? t(key) : null;
      },
      date: dates.dateTime,
    };
  }, [t, dates]);
}
