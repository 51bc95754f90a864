import { useLocation } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { listHref } from "~/components/lists/list-url";
import { PagerLink } from "~/components/lists/pager-link";
import { LinkArea } from "~/components/ui/link-area";
import { numberFormat } from "~/lib/intl";
import { useDates } from "~/lib/use-dates";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { IncidentStatus } from "~/db/enums";
import { ASSIGNEE_PAGE_PARAM, ASSIGNEES_PER_PAGE, type AssigneePage, type DashboardFilters, type DashboardPeriod, type FigureLink, incidentsHref, OPEN_STATUSES } from "~/modules/dashboard/filters";

/** The figures as the loader sends them (client-safe copy of `DashboardFigures`). */
export interface Figures {
  timeZone: string;
  period: DashboardPeriod;
  filters: DashboardFilters;
  total: number;
  months: { month: string; from: string; to: string; created: number; done: number; rejected: number; open: number }[];
  types: { id: number | null; name: string | null; count: number; share: number }[];
  typeCount: number;
  assignees: { id: number | null; name: string | null; open: number; done: number; averageHours: number | null }[];
  handling: { done: number; averageHours: number | null };
  handlingByPriority: { priority?: number | null; done: number; averageHours: number | null }[];
  byStatus: { status: number; count: number }[];
  byPriority: { priority: number | null; count: number }[];
}

/** Number, hours and share formats of the page's language; months and days as every screen writes them (app/lib/dates.ts). */
export function useFigureFormat() {
  const { i18n, t } = useTranslation("dashboard");
  const lng = i18n.language || "en";
  const int = numberFormat(lng);
  const hours = numberFormat(lng, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const share = numberFormat(lng, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const dates = useDates();
  return {
    int: (n: number) => int.format(n),
    hours: (n: number | null) => (n === null ? t("noValue") : hours.format(n)),
    share: (n: number) => share.format(n),
    month: dates.month,
    day: dates.day,
  };
}

function Section({ title, anchor, children }: { title: string; anchor?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section id={anchor} aria-labelledby={id} className="grid min-w-0 content-start gap-2 rounded-md border bg-background p-4 print:break-inside-avoid print:border-0 print:p-0">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * A count linking to the incidents it counts: a plain anchor; the tables' `LinkArea` keeps the click in the
 * app. The number comes formatted (one formatter for the page, not one per count).
 */
function Count({ n, to }: { n: string; to: string }) {
  return <a href={to}>{n}</a>;
}

export const num = "text-right tabular-nums";

/**
 * The address that shows (or, when `shown`, hides) a dashboard section counted only on request: the
 * page's address with `param=1` added (or removed), back at the section's `anchor`.
 */
export function useSectionToggle(param: string, shown: boolean, anchor: string): string {
  const location = useLocation();
  const toggle = new URLSearchParams(location.search);
  if (shown) toggle.delete(param);
  else toggle.set(param, "1");
  const query = toggle.toString();
  return `${location.pathname}${query ? `?${query}` : ""}#${anchor}`;
}

/** One row of a figures table: its heading cell, then its figures. */
export interface FigureRow {
  key: string | number;
  /** `data-*` attributes that name the row (tests and print styles find rows by them). */
  data: Record<string, string | number>;
  head: ReactNode;
  cells: ReactNode[];
  total?: boolean;
  /** Long names (types, people) wrap instead of widening the table. */
  wrap?: boolean;
}

/**
 * A table of figures: the first column heads each row, the others are right-aligned numbers. Wider than
 * a phone, it scrolls sideways in its box, a region named by its caption that the keyboard reaches, with
 * a shadow at the edge where columns are hidden.
 */
export function FigureTable({
  caption,
  columns,
  rows,
  textColumns = 1,
  figureClassName,
}: {
  caption: string;
  columns: string[];
  rows: FigureRow[];
  /** How many columns, the row's heading first, hold text (they wrap); the others hold figures. */
  textColumns?: number;
  figureClassName?: string;
}) {
  return (
    <Table scrollLabel={caption} wrapperClassName="scroll-shadows">
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        <TableRow>
          {columns.map((label, i) => (
            // On a phone a figure's heading may take two lines, so that a narrow table fits.
            <TableHead key={label} className={i >= textColumns ? `${num} max-sm:whitespace-normal` : undefined}>
              {label}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => {
          const data = Object.fromEntries(Object.entries(row.data).map(([k, v]) => [`data-${k}`, v]));
          return (
            <TableRow key={row.key} className={row.total ? "font-semibold" : undefined} {...data}>
              <TableHead scope="row" className={`${row.total ? "" : "font-medium "}${row.wrap ? "whitespace-normal " : ""}text-foreground`}>
                {row.head}
              </TableHead>
              {row.cells.map((cell, i) => (
                <TableCell key={i} className={i < textColumns - 1 ? "whitespace-normal" : figureClassName}>
                  {cell}
                </TableCell>
              ))}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The assignee table's id: its pager's links come back to it. */
const ASSIGNEES_ANCHOR = "assignee-statistics";

/**
 * "21–40 of 101" and Previous / "Page 2 of 6" / Next under the assignee table: plain links that keep the
 * filters and come back to the table (JavaScript on, in the app without moving the page).
 */
function AssigneePager({ page }: { page: AssigneePage }) {
  const { t } = useTranslation("dashboard");
  const location = useLocation();
  const to = (n: number) => (n >= 1 && n <= page.pages ? `${listHref(location, { [ASSIGNEE_PAGE_PARAM]: n > 1 ? n : null })}#${ASSIGNEES_ANCHOR}` : null);
  return (
    <div className="flex flex-col gap-2 text-sm sm:flex-row sm:items-center sm:justify-between print:hidden">
      <p className="text-muted-foreground">{t("common:list.range", { from: page.offset + 1, to: Math.min(page.offset + ASSIGNEES_PER_PAGE, page.total), total: page.total })}</p>
      <nav aria-label={t("assignees.pagination")} className="flex items-center justify-between gap-2 sm:justify-end">
        <PagerLink to={to(page.page - 1)} rel="prev">
          {t("common:list.previous")}
        </PagerLink>
        <span className="px-2 text-muted-foreground">{t("common:list.page", { page: page.page, pages: page.pages })}</span>
        <PagerLink to={to(page.page + 1)} rel="next">
          {t("common:list.next")}
        </PagerLink>
      </nav>
    </div>
  );
}

export function DashboardTables({ figures, assigneePage }: { figures: Figures; assigneePage?: AssigneePage }) {
  const { t } = useTranslation("dashboard");
  const f = useFigureFormat();
  const { filters, period } = figures;
  const href = (link: FigureLink = {}) => incidentsHref(filters, period, link);
  const sum = (key: "created" | "done" | "rejected" | "open") => figures.months.reduce((s, m) => s + m[key], 0);
  const priorityLabel = (p: number | null | undefined) => t(`incidents:priority.${p ?? "none"}`);
  const done = [IncidentStatus.DONE];
  const rejected = [IncidentStatus.REJECTED];
  /** Created, done, rejected and still open within a range (a month) or the whole period. */
  const monthCells = (counts: { created: number; done: number; rejected: number; open: number }, range: FigureLink = {}) => [
    <Count key="created" n={f.int(counts.created)} to={href(range)} />,
    <Count key="done" n={f.int(counts.done)} to={href({ ...range, statuses: done })} />,
    <Count key="rejected" n={f.int(counts.rejected)} to={href({ ...range, statuses: rejected })} />,
    <Count key="open" n={f.int(counts.open)} to={href({ ...range, statuses: OPEN_STATUSES })} />,
  ];

  return (
    <LinkArea className="grid gap-6 lg:grid-cols-2 print:block print:space-y-6 [&_td]:text-right [&_td]:tabular-nums [&_td_a]:font-medium [&_td_a]:text-primary [&_td_a]:underline-offset-4 [&_td_a:hover]:underline print:[&_td_a]:text-foreground print:[&_td_a]:no-underline">
      <div className="lg:col-span-2">
        <Section title={t("months.title")}>
          <FigureTable
            caption={t("months.caption")}
            columns={[t("months.month"), t("months.created"), t("months.done"), t("months.rejected"), t("months.open")]}
            rows={[
              ...figures.months.map((m) => ({ key: m.month, data: { month: m.month }, head: f.month(m.month), cells: monthCells(m, { from: m.from, to: m.to }) })),
              {
                key: "total",
                data: {},
                total: true,
                head: t("months.total"),
                cells: monthCells({ created: sum("created"), done: sum("done"), rejected: sum("rejected"), open: sum("open") }),
              },
            ]}
          />
        </Section>
      </div>

      <Section title={t("types.title")}>
        {figures.types.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("empty")}</p>
        ) : (
          <FigureTable
            caption={t("types.caption")}
            columns={[t("types.type"), t("types.count"), t("types.share")]}
            rows={figures.types.map((type) => ({
              key: type.id ?? "none",
              data: { type: type.id ?? "none" },
              wrap: true,
              head: type.name ?? t("types.none"),
              cells: [type.id === null ? f.int(type.count) : <Count n={f.int(type.count)} to={href({ incidentTypeId: type.id })} />, f.share(type.share)],
            }))}
          />
        )}
        {figures.typeCount > figures.types.length ? (
          <p className="text-sm text-muted-foreground">{t("types.others", { count: figures.typeCount - figures.types.length })}</p>
        ) : null}
      </Section>

      <Section title={t("handling.title")}>
        <p className="text-sm text-muted-foreground">{t("handling.caption")}</p>
        <FigureTable
          caption={t("handling.caption")}
          columns={[t("handling.priority"), t("handling.done"), t("handling.averageHours")]}
          rows={[
            {
              key: "all",
              data: { priority: "all" },
              total: true,
              head: t("handling.overall"),
              cells: [<Count key="n" n={f.int(figures.handling.done)} to={href({ statuses: done })} />, f.hours(figures.handling.averageHours)],
            },
            ...[...figures.handlingByPriority].reverse().map((h) => ({
              key: h.priority ?? "none",
              data: { priority: h.priority ?? "none" },
              head: priorityLabel(h.priority),
              cells: [<Count key="n" n={f.int(h.done)} to={href({ statuses: done, priority: h.priority ?? null })} />, f.hours(h.averageHours)],
            })),
          ]}
        />
      </Section>

      <div className="lg:col-span-2">
        <Section title={t("assignees.title")} anchor={ASSIGNEES_ANCHOR}>
          {figures.assignees.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("empty")}</p>
          ) : (
            <FigureTable
              caption={t("assignees.caption")}
              columns={[t("assignees.assignee"), t("assignees.open"), t("assignees.done"), t("assignees.averageHours")]}
              rows={figures.assignees.map((a) => {
                const assignee = a.id ?? "none";
                return {
                  key: assignee,
                  data: { assignee },
                  wrap: true,
                  head: a.name ?? t("assignees.unassigned"),
                  cells: [
                    <Count key="open" n={f.int(a.open)} to={href({ assignee, statuses: OPEN_STATUSES })} />,
                    <Count key="done" n={f.int(a.done)} to={href({ assignee, statuses: done })} />,
                    f.hours(a.averageHours),
                  ],
                };
              })}
            />
          )}
          {assigneePage && assigneePage.pages > 1 ? <AssigneePager page={assigneePage} /> : null}
        </Section>
      </div>

      <Section title={t("status.title")}>
        <FigureTable
          caption={t("status.caption")}
          columns={[t("status.status"), t("status.count")]}
          rows={figures.byStatus.map((s) => ({
            key: s.status,
            data: { status: s.status },
            head: t(`incidents:status.${s.status}`),
            cells: [<Count key="n" n={f.int(s.count)} to={href({ statuses: [s.status] })} />],
          }))}
        />
      </Section>

      <Section title={t("priority.title")}>
        <FigureTable
          caption={t("priority.caption")}
          columns={[t("priority.priority"), t("priority.count")]}
          rows={[...figures.byPriority].reverse().map((p) => ({
            key: p.priority ?? "none",
            data: { priority: p.priority ?? "none" },
            head: priorityLabel(p.priority),
            cells: [<Count key="n" n={f.int(p.count)} to={href({ priority: p.priority })} />],
          }))}
        />
      </Section>
    </LinkArea>
  );
}
