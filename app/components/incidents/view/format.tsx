import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Badge, type BadgeProps } from "~/components/ui/badge";
import { ASSIGNEE_PAGE_PARAM, ASSIGNEE_Q_PARAM, COMMENT_PARAM, EDIT_ENTRY_PARAM, EDIT_LINE_PARAM, ENTRY_PARAM, FILE_PARAM, LINE_PARAM, type ViewDialog } from "~/lib/incident-view";
import { numberFormat } from "~/lib/intl";
import { useDates } from "~/lib/use-dates";

/** Dates and times in the entity's time zone, in the page's language (app/lib/dates.ts). */
export function useDateTime() {
  return useDates().dateTime;
}

/** A date as a <time> element. */
export function DateTime({ iso }: { iso: string }) {
  const format = useDateTime();
  return <time dateTime={iso}>{format(iso)}</time>;
}

/** "12 KB", "1.4 MB" in the page's language. */
export function fileSize(bytes: number, locale: string): string {
  const format = (value: number) => numberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1024) return `${format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`;
  return `${format(bytes / (1024 * 1024))} MB`;
}

const STATUS_VARIANT: Record<number, BadgeProps["variant"]> = {
  0: "warning",
  1: "default",
  2: "success",
  3: "destructive",
  4: "outline",
};

/** The status of an incident (SPEC.md section 3) as a badge. */
export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("incidents");
  return (
    <Badge variant={STATUS_VARIANT[status] ?? "outline"} data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** A priority's label: Low to Critical, or Not Selected (null). */
export const priorityLabel = (t: TFunction, priority: number | null | undefined) =>
  priority === null || priority === undefined ? t("incidents:priority.none") : t(`incidents:priority.${priority}`);

/** Parameters that belong to a dialog and go when it closes. */
const DIALOG_PARAMS = ["dialog", COMMENT_PARAM, FILE_PARAM, ENTRY_PARAM, LINE_PARAM, EDIT_ENTRY_PARAM, EDIT_LINE_PARAM, ASSIGNEE_Q_PARAM, ASSIGNEE_PAGE_PARAM];

/**
 * The view's URL dialogs (`?dialog=<name>`, with `extra` parameters such as the comment to delete):
 * whether `name` is open, the address that opens it, the address that closes it (the page as it was).
 */
export function useViewDialog(name: ViewDialog) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const open = params.get("dialog") === name;
  const base = new URLSearchParams(location.search);
  for (const p of DIALOG_PARAMS) base.delete(p);
  base.delete("edit");
  const closeSearch = base.toString();
  const closeTo = `${location.pathname}${closeSearch ? `?${closeSearch}` : ""}`;
  const openTo = (extra: Record<string, string | number> = {}) => {
    const next = new URLSearchParams(base);
    next.set("dialog", name);
    for (const [key, value] of Object.entries(extra)) next.set(key, String(value));
    return `${location.pathname}?${next.toString()}`;
  };
  return { open, openTo, closeTo, params };
}

/**
 * "Show earlier": the same address with one more page of the latest comments or events
 * (`?comments=100`), back at the section; nothing once the maximum is shown.
 */
export function ShowEarlier({
  param,
  shown,
  page,
  max,
  anchor,
  children,
}: {
  param: string;
  shown: number;
  page: number;
  max: number;
  anchor: string;
  children: ReactNode;
}) {
  const location = useLocation();
  if (shown >= max) return null;
  const next = new URLSearchParams(location.search);
  for (const p of [...DIALOG_PARAMS, "edit"]) next.delete(p);
  next.set(param, String(Math.min(shown + page, max)));
  return (
    <Link to={`${location.pathname}?${next.toString()}#${anchor}`} preventScrollReset prefetch="none" className="font-medium text-foreground underline underline-offset-4">
      {children}
    </Link>
  );
}
