import type { TFunction } from "i18next";
import type { ServiceContext } from "~/core/context.server";
import { isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import type { DashboardFilters } from "~/modules/dashboard/filters";
import { type CostFigures, type DashboardCosts, getDashboardCosts } from "~/modules/dashboard/costs.server";
import { type DashboardFigures, getDashboard } from "~/modules/dashboard/queries.server";
import { getServiceLevelFigures, type ServiceLevelFigures } from "~/modules/dashboard/service-levels.server";

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

/**
 * The service levels' rows: per target a header, then per row (a month's facility, the month over all
 * facilities, the period) the incidents counted, the share met and the median and 90th percentile in
 * clock minutes. None when there are no rows.
 */
function serviceLevelRows(levels: ServiceLevelFigures, t: TFunction): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [];
  if (levels.rows.length === 0) return rows;
  for (const side of ["response", "resolution"] as const) {
    const section = t(`dashboard:serviceLevels.csv.${side}`);
    rows.push([section, t("dashboard:serviceLevels.csv.item"), t("dashboard:serviceLevels.csv.counted"), t("dashboard:serviceLevels.csv.share"), t("dashboard:serviceLevels.csv.median"), t("dashboard:serviceLevels.csv.p90")]);
    for (const row of levels.rows) {
      const facility = row.scope !== "facility" ? t("dashboard:serviceLevels.allFacilities") : (row.facilityName ?? t("dashboard:serviceLevels.noFacility"));
      const f = row[side];
      rows.push([section, `${row.month ?? t("dashboard:serviceLevels.period")} – ${facility}`, f.counted, f.share === null ? null : Number(f.share.toFixed(4)), f.medianMinutes, f.p90Minutes]);
    }
  }
  return rows;
}

/**
 * The time and costs' rows: per part (months and the period, facilities, buildings, incident types, the
 * costliest rooms and equipment) a header naming the currency, then per row the hours (two decimals), the
 * labour, material and total amounts (exact, with a dot) and the entries without a rate. Every building
 * with costs is listed (the screen shows the costliest).
 */
function costRows(costs: DashboardCosts, t: TFunction): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [];
  const c = costs.currency;
  const values = (x: CostFigures) => [Math.round((x.minutes / 60) * 100) / 100, x.labour, x.materials, x.total, x.unpricedEntries];
  const part = (key: string, heading: string, items: [string, CostFigures][]) => {
    const section = t(`dashboard:costs.csv.${key}`);
    rows.push([
      section,
      heading,
      t("dashboard:costs.columns.hours"),
      `${t("dashboard:costs.columns.labour")} (${c})`,
      `${t("dashboard:costs.columns.materials")} (${c})`,
      `${t("dashboard:costs.columns.total")} (${c})`,
      t("dashboard:costs.columns.unpriced"),
    ]);
    for (const [item, x] of items) rows.push([section, item, ...values(x)]);
  };
  const noRoom = t("dashboard:costs.noRoom");
  part("months", t("dashboard:costs.months.month"), [...costs.months.map((m): [string, CostFigures] => [m.month, m]), [t("dashboard:costs.total"), costs.total]]);
  part("facilities", t("dashboard:costs.facilities.facility"), costs.facilities.map((x) => [x.name ?? noRoom, x]));
  part("buildings", t("dashboard:costs.buildings.building"), costs.buildings.map((x) => [x.name === null ? noRoom : `${x.name} – ${x.facilityName ?? ""}`, x]));
  part(
    "types",
    t("dashboard:costs.types.type"),
    costs.types.map((x) => [x.kind === "maintenance" ? t("dashboard:costs.types.maintenance") : x.kind === "none" ? t("dashboard:costs.noType") : (x.name ?? ""), x]),
  );
  part("rooms", t("dashboard:costs.rooms.room"), costs.rooms.map((x) => [`${x.name} – ${x.buildingName}`, x]));
  part(
    "equipment",
    t("dashboard:costs.equipment.equipment"),
    costs.equipment.map((x) => [`${[x.equipmentName, x.internalReference].filter(Boolean).join(" · ")}${x.roomName ? ` – ${x.roomName}` : ""}`, x]),
  );
  return rows;
}

/**
 * The figures as one CSV table: section, item, then the values (hours with a dot, shares 0 to 1, amounts
 * exact); the service levels and the time and costs (when given) after the counts by priority. Every row
 * has the header's width.
 */
export function dashboardCsv(figures: DashboardFigures, t: TFunction, serviceLevels?: ServiceLevelFigures, costs?: DashboardCosts): string {
  const rows: (string | number | null)[][] = [
    [
      t("dashboard:csv.section"),
      t("dashboard:csv.item"),
      t("dashboard:csv.value1"),
      t("dashboard:csv.value2"),
      t("dashboard:csv.value3"),
      t("dashboard:csv.value4"),
      t("dashboard:csv.value5"),
    ],
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
  if (serviceLevels) rows.push(...serviceLevelRows(serviceLevels, t));
  if (costs) rows.push(...costRows(costs, t));
  const width = rows[0].length;
  return `\uFEFF${rows.map((r) => [...r, ...Array<null>(Math.max(0, width - r.length)).fill(null)].map(cell).join(",")).join("\r\n")}\r\n`;
}

/** GET /dashboard.csv: the figures of the same filters, as a download. */
export async function dashboardCsvResponse(ctx: ServiceContext, filters: DashboardFilters): Promise<Response> {
  const [figures, serviceLevels, costs] = await Promise.all([getDashboard(ctx, filters), getServiceLevelFigures(ctx, filters), getDashboardCosts(ctx, filters)]);
  const csv = dashboardCsv(figures, getT(isLocale(ctx.locale) ? ctx.locale : "en"), serviceLevels, costs);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="dashboard-${figures.period.from}-${figures.period.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
