import { isCalendarDay } from "~/lib/dates";
/**
 * The dashboard's filters and the links of its figures (client-safe, pure). The filters are
 * GET parameters, as on the incidents table: `facility`, `building`, `type`, and the period `from`/`to`
 * (days, inclusive, in the entity's time zone). Without a period the dashboard shows the last six months:
 * the first day of the month five months ago up to today. Every figure counts the incidents created in
 * the period, by their current status; so each one links to the incidents table with the same filters
 * and the matching statuses (`app/modules/incidents/filters.ts`).
 */
import { IncidentStatus } from "~/db/enums";
import { ValidationError } from "~/lib/errors";
import { NO_PRIORITY } from "~/modules/incidents/constants";
import { INCIDENTS_PATH } from "~/modules/incidents/list-url";

export const DASHBOARD_PATH = "/dashboard";
export const DASHBOARD_CSV_PATH = "/dashboard.csv";
/** Months shown by default, the current one included. */
export const DEFAULT_MONTHS = 6;
/** The longest custom period, in months. */
export const MAX_MONTHS = 36;
/** Types listed in the top. */
export const TOP_TYPES = 10;
/** Rooms and equipment items listed by cost in the time and costs (issue 62). */
export const TOP_COST_PLACES = 10;
/** Buildings of the time and costs shown on the screen (the CSV and the API list every one with costs). */
export const COST_BUILDINGS_SHOWN = 20;
/** Assignees per page of the screen's assignee table (the CSV and the API list every one). */
export const ASSIGNEES_PER_PAGE = 20;
/** The GET parameter of that table's page. */
export const ASSIGNEE_PAGE_PARAM = "assignees";

export interface AssigneePage {
  /** 1-based, within 1..pages. */
  page: number;
  pages: number;
  /** Assignees in all pages. */
  total: number;
  /** Index of the page's first row in the whole list (0-based). */
  offset: number;
}

/**
 * The page of the assignee table asked for by `?assignees=`: a missing or unreadable value is the first
 * page, one past the end (an old bookmark after the list shrank) the last.
 */
export function assigneePage(value: string | null, total: number): AssigneePage {
  const pages = Math.max(1, Math.ceil(total / ASSIGNEES_PER_PAGE));
  // Whole numbers of any length (a huge one is past the end: the last page); anything else is page 1.
  const asked = value !== null && /^\d{1,30}$/.test(value) ? Number(value) : 1;
  const page = Math.min(Math.max(asked, 1), pages);
  return { page, pages, total, offset: (page - 1) * ASSIGNEES_PER_PAGE };
}

export const OPEN_STATUSES = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS] as const;
export const ALL_STATUSES = Object.values(IncidentStatus) as IncidentStatus[];

export interface DashboardFilters {
  facilityId: number | null;
  buildingId: number | null;
  incidentTypeId: number | null;
  /** YYYY-MM-DD, or null for the default period. */
  from: string | null;
  to: string | null;
}

export interface DashboardPeriod {
  from: string;
  to: string;
  /** Whether from/to were given (not the default six months). */
  custom: boolean;
}

const ID = /^\d{1,9}$/;

/** Reads the filters; `strict` (the API) refuses an unreadable value instead of ignoring it. */
export function parseDashboardFilters(params: URLSearchParams, options: { strict?: boolean } = {}): DashboardFilters {
  const errors: Record<string, string[]> = {};
  const id = (name: string): number | null => {
    const v = params.get(name);
    if (v === null || v === "") return null;
    if (ID.test(v) && Number(v) > 0) return Number(v);
    errors[name] = ["errors.list.filter"];
    return null;
  };
  const day = (name: string): string | null => {
    const v = params.get(name);
    if (v === null || v === "") return null;
    if (isCalendarDay(v)) return v;
    errors[name] = ["errors.list.filter"];
    return null;
  };
  const filters: DashboardFilters = {
    facilityId: id("facility"),
    buildingId: id("building"),
    incidentTypeId: id("type"),
    from: day("from"),
    to: day("to"),
  };
  if (filters.from && filters.to && filters.from > filters.to) {
    errors.to = ["dashboard:errors.periodOrder"];
    filters.to = null;
  }
  if (filters.from && filters.to && monthsBetween(filters.from, filters.to).length > MAX_MONTHS) {
    errors.to = ["dashboard:errors.periodTooLong"];
    filters.to = null;
  }
  if (options.strict && Object.keys(errors).length) throw new ValidationError(errors, "errors.list.invalid", "INVALID_LIST_QUERY");
  return filters;
}

/** Adds `n` months to the month of `day` (YYYY-MM-DD) and answers its first day. */
export function addMonths(day: string, n: number): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7)) - 1 + n;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  return `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-01`;
}

/** The last day of the month of `day`. */
export function lastDayOfMonth(day: string): string {
  const next = addMonths(day, 1);
  const date = new Date(`${next}T00:00:00Z`);
  date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}

/** The months (YYYY-MM) from the month of `from` to the month of `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let day = addMonths(from, 0); day.slice(0, 7) <= to.slice(0, 7) && months.length <= MAX_MONTHS; day = addMonths(day, 1)) {
    months.push(day.slice(0, 7));
  }
  return months;
}

/** The period shown: the one given, or the last six months up to `today` (in the entity's time zone). */
export function dashboardPeriod(filters: DashboardFilters, today: string): DashboardPeriod {
  if (filters.from || filters.to) {
    const to = filters.to ?? (filters.from && filters.from > today ? lastDayOfMonth(filters.from) : today);
    const from = filters.from ?? addMonths(to, -(DEFAULT_MONTHS - 1));
    return { from, to, custom: true };
  }
  return { from: addMonths(today, -(DEFAULT_MONTHS - 1)), to: today, custom: false };
}

/** The parameters of the dashboard itself (the filters as given, for the CSV link and the form). */
export function dashboardParams(filters: DashboardFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.facilityId) params.set("facility", String(filters.facilityId));
  if (filters.buildingId) params.set("building", String(filters.buildingId));
  if (filters.incidentTypeId) params.set("type", String(filters.incidentTypeId));
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  return params;
}

export interface FigureLink {
  statuses?: readonly number[];
  /** A priority (null: Not Selected). */
  priority?: number | null;
  /** A user id, or "none" (unassigned). */
  assignee?: number | "none";
  incidentTypeId?: number;
  /** A narrower period (one month of the period). */
  from?: string;
  to?: string;
}

/** The incidents table showing the incidents behind a figure. */
export function incidentsHref(filters: DashboardFilters, period: DashboardPeriod, link: FigureLink = {}): string {
  const params = new URLSearchParams({ view: "table" });
  for (const s of link.statuses ?? ALL_STATUSES) params.append("status", String(s));
  if (link.priority !== undefined) params.set("priority", link.priority === null ? NO_PRIORITY : String(link.priority));
  if (link.assignee !== undefined) params.set("assignee", String(link.assignee));
  const type = link.incidentTypeId ?? filters.incidentTypeId;
  if (type) params.set("type", String(type));
  if (filters.facilityId) params.set("facility", String(filters.facilityId));
  if (filters.buildingId) params.set("building", String(filters.buildingId));
  params.set("from", link.from ?? period.from);
  params.set("to", link.to ?? period.to);
  return `${INCIDENTS_PATH}?${params}`;
}

/** The part of `month` (YYYY-MM) inside the period, as days. */
export function monthRange(month: string, period: DashboardPeriod): { from: string; to: string } {
  const first = `${month}-01`;
  const last = lastDayOfMonth(first);
  return { from: first < period.from ? period.from : first, to: last > period.to ? period.to : last };
}
