import { Link } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { IncidentStatus } from "~/db/enums";
import { type DashboardFilters, type DashboardPeriod, type FigureLink, incidentsHref, OPEN_STATUSES } from "~/modules/dashboard/filters";

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

interface Formats {
  int: Intl.NumberFormat;
  hours: Intl.NumberFormat;
  share: Intl.NumberFormat;
  month: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
}
/** One set of formatters per language (making an Intl formatter costs far more than using it). */
const formatsByLanguage = new Map<string, Formats>();
function formatsFor(lng: string): Formats {
  let formats = formatsByLanguage.get(lng);
  if (!formats) {
    formats = {
      int: new Intl.NumberFormat(lng),
      hours: new Intl.NumberFormat(lng, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      share: new Intl.NumberFormat(lng, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      month: new Intl.DateTimeFormat(lng, { month: "long", year: "numeric", timeZone: "UTC" }),
      day: new Intl.DateTimeFormat(lng, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }),
    };
    formatsByLanguage.set(lng, formats);
  }
  return formats;
}

/** Number, hours, share and month formats of the page's language. */
export function useFigureFormat() {
  const { i18n, t } = useTranslation("dashboard");
  const f = formatsFor(i18n.language || "en");
  return {
    int: (n: number) => f.int.format(n),
    hours: (n: number | null) => (n === null ? t("noValue") : f.hours.format(n)),
    share: (n: number) => f.share.format(n),
    month: (m: string) => f.month.format(new Date(`${m}-01T00:00:00Z`)),
    day: (d: string) => f.day.format(new Date(`${d}T00:00:00Z`)),
  };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid min-w-0 content-start gap-2 rounded-md border bg-background p-4 print:break-inside-avoid print:border-0 print:p-0">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A count linking to the incidents it counts. */
function Count({ n, to }: { n: number; to: string }) {
  const f = useFigureFormat();
  return (
    <Link to={to}>{f.int(n)}</Link>
  );
}

const num = "text-right tabular-nums";

export function DashboardTables({ figures }: { figures: Figures }) {
  const { t } = useTranslation("dashboard");
  const f = useFigureFormat();
  const { filters, period } = figures;
  const href = (link: FigureLink = {}) => incidentsHref(filters, period, link);
  const sum = (key: "created" | "done" | "rejected" | "open") => figures.months.reduce((s, m) => s + m[key], 0);
  const priorityLabel = (p: number | null | undefined) => t(`incidents:priority.${p ?? "none"}`);

  return (
    <div className="grid gap-6 lg:grid-cols-2 print:block print:space-y-6 [&_td]:text-right [&_td]:tabular-nums [&_td_a]:font-medium [&_td_a]:text-primary [&_td_a]:underline-offset-4 [&_td_a:hover]:underline print:[&_td_a]:text-foreground print:[&_td_a]:no-underline">
      <div className="lg:col-span-2">
        <Section title={t("months.title")}>
          <Table>
            <TableCaption className="sr-only">{t("months.caption")}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>{t("months.month")}</TableHead>
                <TableHead className={num}>{t("months.created")}</TableHead>
                <TableHead className={num}>{t("months.done")}</TableHead>
                <TableHead className={num}>{t("months.rejected")}</TableHead>
                <TableHead className={num}>{t("months.open")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {figures.months.map((m) => {
                const range = { from: m.from, to: m.to };
                return (
                  <TableRow key={m.month} data-month={m.month}>
                    <TableHead scope="row" className="font-medium text-foreground">
                      {f.month(m.month)}
                    </TableHead>
                    <TableCell>
                      <Count n={m.created} to={href(range)} />
                    </TableCell>
                    <TableCell>
                      <Count n={m.done} to={href({ ...range, statuses: [IncidentStatus.DONE] })} />
                    </TableCell>
                    <TableCell>
                      <Count n={m.rejected} to={href({ ...range, statuses: [IncidentStatus.REJECTED] })} />
                    </TableCell>
                    <TableCell>
                      <Count n={m.open} to={href({ ...range, statuses: OPEN_STATUSES })} />
                    </TableCell>
                  </TableRow>
                );
              })}
              <TableRow className="font-semibold">
                <TableHead scope="row" className="text-foreground">
                  {t("months.total")}
                </TableHead>
                <TableCell>
                  <Count n={sum("created")} to={href()} />
                </TableCell>
                <TableCell>
                  <Count n={sum("done")} to={href({ statuses: [IncidentStatus.DONE] })} />
                </TableCell>
                <TableCell>
                  <Count n={sum("rejected")} to={href({ statuses: [IncidentStatus.REJECTED] })} />
                </TableCell>
                <TableCell>
                  <Count n={sum("open")} to={href({ statuses: OPEN_STATUSES })} />
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
        </Section>
      </div>

      <Section title={t("types.title")}>
        {figures.types.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("empty")}</p>
        ) : (
          <Table>
            <TableCaption className="sr-only">{t("types.caption")}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>{t("types.type")}</TableHead>
                <TableHead className={num}>{t("types.count")}</TableHead>
                <TableHead className={num}>{t("types.share")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {figures.types.map((type) => (
                <TableRow key={type.id ?? "none"} data-type={type.id ?? "none"}>
                  <TableHead scope="row" className="whitespace-normal font-medium text-foreground">
                    {type.name ?? t("types.none")}
                  </TableHead>
                  <TableCell>{type.id === null ? f.int(type.count) : <Count n={type.count} to={href({ incidentTypeId: type.id })} />}</TableCell>
                  <TableCell>{f.share(type.share)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {figures.typeCount > figures.types.length ? (
          <p className="text-sm text-muted-foreground">{t("types.others", { count: figures.typeCount - figures.types.length })}</p>
        ) : null}
      </Section>

      <Section title={t("handling.title")}>
        <p className="text-sm text-muted-foreground">{t("handling.caption")}</p>
        <Table>
          <TableCaption className="sr-only">{t("handling.caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("handling.priority")}</TableHead>
              <TableHead className={num}>{t("handling.done")}</TableHead>
              <TableHead className={num}>{t("handling.averageHours")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <TableRow className="font-semibold" data-priority="all">
              <TableHead scope="row" className="text-foreground">
                {t("handling.overall")}
              </TableHead>
              <TableCell>
                <Count n={figures.handling.done} to={href({ statuses: [IncidentStatus.DONE] })} />
              </TableCell>
              <TableCell>{f.hours(figures.handling.averageHours)}</TableCell>
            </TableRow>
            {[...figures.handlingByPriority].reverse().map((h) => (
              <TableRow key={h.priority ?? "none"} data-priority={h.priority ?? "none"}>
                <TableHead scope="row" className="font-medium text-foreground">
                  {priorityLabel(h.priority)}
                </TableHead>
                <TableCell>
                  <Count n={h.done} to={href({ statuses: [IncidentStatus.DONE], priority: h.priority ?? null })} />
                </TableCell>
                <TableCell>{f.hours(h.averageHours)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>

      <div className="lg:col-span-2">
        <Section title={t("assignees.title")}>
          {figures.assignees.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("empty")}</p>
          ) : (
            <Table>
              <TableCaption className="sr-only">{t("assignees.caption")}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("assignees.assignee")}</TableHead>
                  <TableHead className={num}>{t("assignees.open")}</TableHead>
                  <TableHead className={num}>{t("assignees.done")}</TableHead>
                  <TableHead className={num}>{t("assignees.averageHours")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {figures.assignees.map((a) => {
                  const assignee = a.id ?? "none";
                  return (
                    <TableRow key={assignee} data-assignee={assignee}>
                      <TableHead scope="row" className="whitespace-normal font-medium text-foreground">
                        {a.name ?? t("assignees.unassigned")}
                      </TableHead>
                      <TableCell>
                        <Count n={a.open} to={href({ assignee, statuses: OPEN_STATUSES })} />
                      </TableCell>
                      <TableCell>
                        <Count n={a.done} to={href({ assignee, statuses: [IncidentStatus.DONE] })} />
                      </TableCell>
                      <TableCell>{f.hours(a.averageHours)}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </Section>
      </div>

      <Section title={t("status.title")}>
        <Table>
          <TableCaption className="sr-only">{t("status.caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("status.status")}</TableHead>
              <TableHead className={num}>{t("status.count")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {figures.byStatus.map((s) => (
              <TableRow key={s.status} data-status={s.status}>
                <TableHead scope="row" className="font-medium text-foreground">
                  {t(`incidents:status.${s.status}`)}
                </TableHead>
                <TableCell>
                  <Count n={s.count} to={href({ statuses: [s.status] })} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>

      <Section title={t("priority.title")}>
        <Table>
          <TableCaption className="sr-only">{t("priority.caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("priority.priority")}</TableHead>
              <TableHead className={num}>{t("priority.count")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {[...figures.byPriority].reverse().map((p) => (
              <TableRow key={p.priority ?? "none"} data-priority={p.priority ?? "none"}>
                <TableHead scope="row" className="font-medium text-foreground">
                  {priorityLabel(p.priority)}
                </TableHead>
                <TableCell>
                  <Count n={p.count} to={href({ priority: p.priority })} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
    </div>
  );
}
