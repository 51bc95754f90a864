import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { notificationPriority, notificationTitle, type NotificationLike } from "~/modules/notifications/present";
import { dateTimeFormat } from "~/lib/intl";

/** A notification's title in the page's language. */
export function useNotificationText() {
  const { t, i18n } = useTranslation("notifications");
  return useMemo(() => {
    const date = dateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Brussels" });
    return {
      title(n: NotificationLike) {
        const { key, params } = notificationTitle(n);
        return t(key, params);
      },
      priority(n: NotificationLike) {
        const key = notificationPriority(n);
        return key ? t(key) : null;
      },
      date: (iso: string) => date.format(new Date(iso)),
    };
  }, [t, i18n.language]);
}
