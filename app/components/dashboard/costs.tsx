import { Link } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { moneyFormatter } from "~/lib/money";
import type { CostFigures, DashboardCosts } from "~/modules/dashboard/costs.server";
import { COST_BUILDINGS_SHOWN } from "~/modules/dashboard/filters";
import { FigureTable, num, useFigureFormat } from "./dashboard-tables";

/** The section's id. */
const ANCHOR = "time-and-costs";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** One row of a cost table: its heading cells (a name, maybe its place), then the figures. */
interface CostRow {
  key: string | number;
  data: Record<string, string | number>;
  heads: ReactNode[];
  figures: CostFigures;
  total?: boolean;
}

/**
 * A table of cost figures: the heading columns, then hours, labour, material, total and the entries
 * without a rate, right-aligned. Wider than a phone, it scrolls sideways in its named region.
 */
function CostTable({ caption, heads, rows, money }: { caption: string; heads: string[]; rows: CostRow[]; money: (amount: string) => string }) {
  const { t } = useTranslation("dashboard");
  const f = useFigureFormat();
  return (
    <FigureTable
      caption={caption}
      columns={[...heads, ...(["hours", "labour", "materials", "total", "unpriced"] as const).map((column) => t(`costs.columns.${column}`))]}
      textColumns={heads.length}
      figureClassName={num}
      rows={rows.map((row) => ({
        key: row.key,
        data: row.data,
        total: row.total,
        wrap: true,
        head: row.heads[0],
        cells: [
          ...row.heads.slice(1),
          f.hours(Math.round((row.figures.minutes / 60) * 10) / 10),
          money(row.figures.labour),
          money(row.figures.materials),
          money(row.figures.total),
          f.int(row.figures.unpricedEntries),
        ],
      }))}
    />
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid min-w-0 content-start gap-2 print:break-inside-avoid">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/**
 * The dashboard's "Time and costs" (issue 62, `getDashboardCosts`): hours and costs per month (the whole
 * period last), per facility, per building (the costliest shown, the CSV has all), per incident type
 * (planned maintenance apart), then the ten costliest rooms and equipment items, each linking to its page.
 * Amounts in the entity's currency in the page's language; the entries without a rate are counted and said.
 */
export function DashboardCostsSection({ costs }: { costs: DashboardCosts }) {
  const { t } = useTranslation("dashboard");
  const id = useId();
  return (
    <section id={ANCHOR} aria-labelledby={id} className="grid min-w-0 content-start gap-4 rounded-md border bg-background p-4 print:border-0 print:p-0">
      <div className="grid gap-1">
        <h2 id={id} className="text-lg font-semibold">
          {t("costs.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("costs.intro", { currency: costs.currency })}</p>
      </div>
      <CostFiguresShown costs={costs} />
    </section>
  );
}

/** The section's figures. */
function CostFiguresShown({ costs }: { costs: DashboardCosts }) {
  const { t, i18n } = useTranslation("dashboard");
  const f = useFigureFormat();
  const money = moneyFormatter(costs.currency, i18n.language || "en");
  const noRoom = t("costs.noRoom");
  const buildings = costs.buildings.slice(0, COST_BUILDINGS_SHOWN);
  const empty = costs.total.entries === 0 && costs.total.lines === 0;
  return (
    <>
      {costs.total.unpricedEntries > 0 ? (
        <p className="text-sm" data-unpriced={costs.total.unpricedEntries}>
          {t("costs.unpriced", { count: costs.total.unpricedEntries })}
        </p>
      ) : null}
      {empty ? (
        <p className="text-sm text-muted-foreground" data-empty="no-costs">
          {t("costs.empty")}
        </p>
      ) : (
        <>
          <Part title={t("costs.months.title")}>
            <CostTable
              money={money}
              caption={t("costs.months.caption")}
              heads={[t("costs.months.month")]}
              rows={[
                ...costs.months.map((m) => ({ key: m.month, data: { month: m.month }, heads: [f.month(m.month)], figures: m })),
                { key: "total", data: { month: "period" }, heads: [t("costs.total")], figures: costs.total, total: true },
              ]}
            />
          </Part>
          <Part title={t("costs.facilities.title")}>
            <CostTable
              money={money}
              caption={t("costs.facilities.caption")}
              heads={[t("costs.facilities.facility")]}
              rows={costs.facilities.map((x) => ({ key: x.id ?? "none", data: { facility: x.id ?? "none" }, heads: [x.name ?? noRoom], figures: x }))}
            />
          </Part>
          <Part title={t("costs.buildings.title")}>
            <CostTable
              money={money}
              caption={t("costs.buildings.caption")}
              heads={[t("costs.buildings.building"), t("costs.buildings.facility")]}
              rows={buildings.map((x) => ({ key: x.id ?? "none", data: { building: x.id ?? "none" }, heads: [x.name ?? noRoom, x.facilityName ?? ""], figures: x }))}
            />
            {costs.buildings.length > buildings.length ? (
              <p className="text-sm text-muted-foreground">{t("costs.buildings.shown", { shown: f.int(buildings.length), total: f.int(costs.buildings.length) })}</p>
            ) : null}
          </Part>
          <Part title={t("costs.types.title")}>
            <CostTable
              money={money}
              caption={t("costs.types.caption")}
              heads={[t("costs.types.type")]}
              rows={costs.types.map((x) => ({
                key: `${x.kind}-${x.id ?? ""}`,
                data: { type: x.kind === "type" ? (x.id ?? "") : x.kind },
                heads: [x.kind === "maintenance" ? t("costs.types.maintenance") : x.kind === "none" ? t("costs.noType") : (x.name ?? "")],
                figures: x,
              }))}
            />
          </Part>
          {costs.rooms.length ? (
            <Part title={t("costs.rooms.title")}>
              <CostTable
                money={money}
              caption={t("costs.rooms.caption")}
                heads={[t("costs.rooms.room"), t("costs.rooms.building")]}
                rows={costs.rooms.map((x) => ({
                  key: x.id,
                  data: { room: x.id },
                  heads: [
                    <Link key="room" to={`/view-room/${x.id}`} className={linkClass}>
                      {x.name}
                    </Link>,
                    x.buildingName,
                  ],
                  figures: x,
                }))}
              />
            </Part>
          ) : null}
          {costs.equipment.length ? (
            <Part title={t("costs.equipment.title")}>
              <CostTable
                money={money}
              caption={t("costs.equipment.caption")}
                heads={[t("costs.equipment.equipment"), t("costs.equipment.room")]}
                rows={costs.equipment.map((x) => ({
                  key: x.id,
                  data: { "equipment-item": x.id },
                  heads: [
                    <Link key="item" to={`/view-equipment/${x.id}`} className={linkClass}>
                      {[x.equipmentName, x.internalReference].filter(Boolean).join(" · ")}
                    </Link>,
                    x.roomName ?? "",
                  ],
                  figures: x,
                }))}
              />
            </Part>
          ) : null}
        </>
      )}
    </>
  );
}
