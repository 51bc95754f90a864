import type { TFunction } from "i18next";
import type { ServiceContext } from "~/core/context.server";
import { isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import type { DashboardFilters } from "~/modules/dashboard/filters";
import { type DashboardFigures, getDashboard } from "~/modules/dashboard/queries.server";

/**
 * The dashboard's figures as CSV, for /dashboard.csv. The screen (app/routes/dashboard.tsx)
 * pages the assignee table; the API answers `getDashboard` as it is (every assignee).
 */

const cell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // Quote what needs it; a leading = + - @ would be read as a formula by a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The figures as one CSV table: section, item, then the values (hours with a dot, shares 0 to 1). */
export function dashboardCsv(figures: DashboardFigures, t: TFunction): string {
  const rows: (string | number | null)[][] = [
    [t("dashboard:csv.section"), t("dashboard:csv.item"), t("dashboard:csv.value1"), t("dashboard:csv.value2"), t("dashboard:csv.value3"), t("dashboard:csv.value4")],
    [t("dashboard:csv.period"), `${figures.period.from} – ${figures.period.to}`, figures.timeZone, null, null, null],
    [t("dashboard:months.title"), t("dashboard:months.month"), t("dashboard:months.created"), t("dashboard:months.done"), t("dashboard:months.rejected"), t("dashboard:months.open")],
  ];
  for (const m of figures.months) rows.push([t("dashboard:months.title"), m.month, m.created, m.done, m.rejected, m.open]);
  rows.push([t("dashboard:types.title"), t("dashboard:types.type"), t("dashboard:types.count"), t("dashboard:types.share"), null, null]);
  for (const type of figures.types) rows.push([t("dashboard:types.title"), type.name ?? t("dashboard:types.none"), type.count, Number(type.share.toFixed(4)), null, null]);
  rows.push([t("dashboard:assignees.title"), t("dashboard:assignees.assignee"), t("dashboard:assignees.open"), t("dashboard:assignees.done"), t("dashboard:assignees.averageHours"), null]);
  for (const a of figures.assignees) rows.push([t("dashboard:assignees.title"), a.name ?? t("dashboard:assignees.unassigned"), a.open, a.done, a.averageHours, null]);
  rows.push([t("dashboard:handling.title"), t("dashboard:handling.priority"), t("dashboard:handling.done"), t("dashboard:handling.averageHours"), null, null]);
  rows.push([t("dashboard:handling.title"), t("dashboard:handling.overall"), figures.handling.done, figures.handling.averageHours, null, null]);
  for (const h of figures.handlingByPriority) {
    rows.push([t("dashboard:handling.title"), t(`incidents:priority.${h.priority ?? "none"}`), h.done, h.averageHours, null, null]);
  }
  for (const s of figures.byStatus) rows.push([t("dashboard:status.title"), t(`incidents:status.${s.status}`), s.count, null, null, null]);
  for (const p of figures.byPriority) rows.push([t("dashboard:priority.title"), t(`incidents:priority.${p.priority ?? "none"}`), p.count, null, null, null]);
  return `\uFEFF${rows.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}

/** GET /dashboard.csv: the figures of the same filters, as a download. */
export async function dashboardCsvResponse(ctx: ServiceContext, filters: DashboardFilters): Promise<Response> {
  const figures = await getDashboard(ctx, filters);
  const csv = dashboardCsv(figures, getT(isLocale(ctx.locale) ? ctx.locale : "en"));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="dashboard-${figures.period.from}-${figures.period.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
