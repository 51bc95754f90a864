import { isCalendarDay } from "~/lib/dates";
/**
 * The filters of the incidents table and board, read from the URL (client-safe): every filter is a
 * plain GET parameter, so a view can be bookmarked and works without JavaScript. A screen ignores what
 * it cannot read; the API (`strict`) refuses it with a field error.
 */
import { IncidentStatus } from "~/db/enums";
import { ValidationError } from "~/lib/errors";
import { searchParam } from "~/lib/list-query";
import { hasControlCharacters } from "~/lib/text";
import { ASSIGNEE_ME, ASSIGNEE_NONE, NO_PRIORITY } from "./constants";

export type AssigneeFilter = "me" | "none" | number;

export interface IncidentFilters {
  /** Statuses shown; empty: every status but Archived. */
  statuses: number[];
  /** Priorities shown (null: Not Selected); empty: all. */
  priorities: (number | null)[];
  assignee: AssigneeFilter | null;
  incidentTypeId: number | null;
  facilityId: number | null;
  buildingId: number | null;
  roomId: number | null;
  /** Incidents carrying every one of these tags. */
  tags: string[];
  /** Created on or after this day / on or before this day (YYYY-MM-DD, in the entity's time zone). */
  from: string | null;
  to: string | null;
  /** Searched in the short id, the title and the description. */
  q: string;
  /**
   * "breached": a service-level clock runs past its due time; "soon": one reaches it within the next
   * 4 working hours (decision 064); null: any.
   */
  due: DueFilter | null;
  /** For "soon": the instant 4 working hours from now, worked out by the list's query (`withDueWindow`), never read from the URL. */
  dueSoonUntil?: Date;
}

/** The service-level filter's values (`due=breached`, `due=soon`). */
export const DUE_FILTERS = ["breached", "soon"] as const;
/** "Breaching within" this many working minutes. */
export const DUE_SOON_MINUTES = 4 * 60;
export type DueFilter = (typeof DUE_FILTERS)[number];

export const NO_FILTERS: IncidentFilters = {
  statuses: [],
  priorities: [],
  assignee: null,
  incidentTypeId: null,
  facilityId: null,
  buildingId: null,
  roomId: null,
  tags: [],
  from: null,
  to: null,
  q: "",
  due: null,
};

const STATUSES = Object.values(IncidentStatus) as number[];
const ID = /^\d{1,9}$/;

/** Reads the filters; `strict` (the API) refuses an unreadable value instead of ignoring it. */
export function parseIncidentFilters(params: URLSearchParams, options: { strict?: boolean } = {}): IncidentFilters {
  const errors: Record<string, string[]> = {};
  const bad = (name: string) => {
    errors[name] = ["errors.list.filter"];
  };
  const many = (name: string) =>
    params
      .getAll(name)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean);

  const statuses: number[] = [];
  for (const v of many("status")) {
    if (ID.test(v) && STATUSES.includes(Number(v))) statuses.push(Number(v));
    else bad("status");
  }
  const priorities: (number | null)[] = [];
  for (const v of many("priority")) {
    if (v === NO_PRIORITY) priorities.push(null);
    else if (/^[0-3]$/.test(v)) priorities.push(Number(v));
    else bad("priority");
  }
  const id = (name: string): number | null => {
    const v = params.get(name);
    if (v === null || v === "") return null;
    if (ID.test(v) && Number(v) > 0) return Number(v);
    bad(name);
    return null;
  };
  let assignee: AssigneeFilter | null = null;
  const a = params.get("assignee");
  if (a === ASSIGNEE_ME || a === ASSIGNEE_NONE) assignee = a;
  else if (a !== null && a !== "") assignee = id("assignee");

  const tags: string[] = [];
  for (const v of many("tag")) {
    if (v.length <= 20 && !hasControlCharacters(v)) tags.push(v);
    else bad("tag");
  }
  const day = (name: string): string | null => {
    const v = params.get(name);
    if (v === null || v === "") return null;
    if (isCalendarDay(v)) return v;
    bad(name);
    return null;
  };

  const dueParam = params.get("due");
  const due = (DUE_FILTERS as readonly string[]).includes(dueParam ?? "") ? (dueParam as DueFilter) : null;
  if (due === null && dueParam) bad("due");

  const filters: IncidentFilters = {
    statuses: [...new Set(statuses)],
    priorities: [...new Set(priorities)],
    assignee,
    incidentTypeId: id("type"),
    facilityId: id("facility"),
    buildingId: id("building"),
    roomId: id("room"),
    tags: [...new Set(tags)].slice(0, 3),
    from: day("from"),
    to: day("to"),
    q: searchParam(params),
    due,
  };
  if (options.strict && Object.keys(errors).length) throw new ValidationError(errors, "errors.list.invalid", "INVALID_LIST_QUERY");
  return filters;
}

/** The URL parameters of `filters` (the inverse of `parseIncidentFilters`), for links and forms. */
export function filterParams(filters: IncidentFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const s of filters.statuses) params.append("status", String(s));
  for (const p of filters.priorities) params.append("priority", p === null ? NO_PRIORITY : String(p));
  if (filters.assignee !== null) params.set("assignee", String(filters.assignee));
  if (filters.incidentTypeId) params.set("type", String(filters.incidentTypeId));
  if (filters.facilityId) params.set("facility", String(filters.facilityId));
  if (filters.buildingId) params.set("building", String(filters.buildingId));
  if (filters.roomId) params.set("room", String(filters.roomId));
  for (const t of filters.tags) params.append("tag", t);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.q) params.set("q", filters.q);
  if (filters.due) params.set("due", filters.due);
  return params;
}

/** Whether a filter of the "More filters" panel is set (assignee, type, place, tags, dates). */
export function hasMoreFilters(filters: IncidentFilters): boolean {
  return (
    filters.assignee !== null ||
    filters.incidentTypeId !== null ||
    filters.facilityId !== null ||
    filters.buildingId !== null ||
    filters.roomId !== null ||
    filters.tags.length > 0 ||
    filters.from !== null ||
    filters.to !== null
  );
}

/** Whether any filter narrows the list. */
export function hasFilters(filters: IncidentFilters): boolean {
  return filterParams(filters).size > 0;
}

/** How many filters narrow the list: each field once, however many of its values are chosen. */
export function activeFilterCount(filters: IncidentFilters): number {
  return new Set(filterParams(filters).keys()).size;
}
