import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { headerButton } from "./styles";

/** The bell in the header: links to /notifications and shows the unread count. */
export function NotificationsBell({ unread, className }: { unread: number; className?: string }) {
  const { t } = useTranslation("shell");
  const label = unread > 0 ? t("bell.unread", { count: unread }) : t("bell.none");
  return (
    <Link to="/notifications" aria-label={label} title={label} className={cn(headerButton, "relative", className)}>
      <Icon name="bell" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="absolute right-1 top-1 flex h-[1.125rem] min-w-[1.125rem] items-center justify-center rounded-full bg-destructive px-1 text-[0.6875rem] font-bold leading-none text-destructive-foreground ring-2 ring-primary"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
