/**
 * Input schemas of the task verbs and the task list's filters (client-safe, shared by the forms and the
 * REST API). Messages are i18n keys. A form posts strings ("1"); the API posts JSON (1): both read alike.
 */
import { z } from "zod";
import { isCalendarDay } from "~/lib/dates";
import { ValidationError } from "~/lib/errors";
import { optionalText } from "~/lib/schema-helpers";

import { TASK_NOTE_MAX } from "./task-constants";

export { TASK_DONE_INTENT, TASK_NOTE_MAX, TASK_UNDO_INTENT } from "./task-constants";
export const TASK_STATUS_INVALID = "tasks:validation.status";

/** Task status (SPEC.md section 3): pending 0, done 1. */
export const TASK_STATUSES = [0, 1] as const;

const asNumber = (v: unknown) => (typeof v === "string" && /^-?\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v);

/** Marking a task done: an optional note (the photo travels beside it, as an upload). */
export const CompleteTaskSchema = z.object({ note: optionalText(TASK_NOTE_MAX) });
export type CompleteTaskInput = z.input<typeof CompleteTaskSchema>;

/**
 * PUT /api/tasks/{id}/status: `{ status: 0 | 1, note?, checks? }` (the note and an inspection's answers,
 * by check id, only count when marking done).
 */
export const SetTaskStatusSchema = z.object({
  status: z.preprocess(
    asNumber,
    z
      .number({ error: TASK_STATUS_INVALID })
      .int(TASK_STATUS_INVALID)
      .refine((s) => (TASK_STATUSES as readonly number[]).includes(s), TASK_STATUS_INVALID),
  ),
  note: optionalText(TASK_NOTE_MAX),
  checks: z.record(z.string().regex(/^\d{1,9}$/, TASK_STATUS_INVALID), z.string().max(2000, "common:validation.tooLong"), { error: "common:validation.invalid" }).optional(),
});
export type SetTaskStatusInput = z.input<typeof SetTaskStatusSchema>;

// ---------------------------------------------------------------------------
// The list's and the calendar's filters (the address of /task and the query of GET /api/tasks)
// ---------------------------------------------------------------------------

export type TaskStatusFilter = "all" | "pending" | "done";
export type TaskView = "list" | "month" | "week";

export interface TaskFilters {
  status: TaskStatusFilter;
  /** Only the tasks of this building. */
  buildingId: number | null;
  /** Only the tasks of this planned maintenance. */
  plannedMaintenanceId: number | null;
  /** "me": my tasks; a user id: that person's; null: everyone's. */
  assignee: "me" | number | null;
  /** Only the tasks due this day (`YYYY-MM-DD`): the list of one day, which the calendar links to. */
  day?: string | null;
}

const ID = /^\d{1,9}$/;
const MONTH = /^\d{4}-\d{2}$/;

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function isDay(value: unknown): value is string {
  return isCalendarDay(value);
}

export function isMonth(value: unknown): value is string {
  return typeof value === "string" && MONTH.test(value) && isDay(`${value}-01`);
}

const idOf = (value: string | null) => (value && ID.test(value) && Number(value) > 0 ? Number(value) : null);

/**
 * The filters the address names; what it does not name takes the defaults: pending tasks, and "my tasks"
 * for a technician (`assignee=all` shows everyone's). Unreadable values fall back to the defaults.
 */
export function parseTaskFilters(params: URLSearchParams, options: { mineByDefault: boolean }): TaskFilters {
  const status = params.get("status");
  const assignee = params.get("assignee");
  return {
    status: status === "all" || status === "done" || status === "pending" ? status : "pending",
    buildingId: idOf(params.get("building")),
    plannedMaintenanceId: idOf(params.get("plan")),
    assignee: assignee === "me" ? "me" : assignee === "all" ? null : (idOf(assignee) ?? (options.mineByDefault ? "me" : null)),
    day: isDay(params.get("day")) ? params.get("day") : null,
  };
}

export function parseTaskView(params: URLSearchParams): TaskView {
  const view = params.get("view");
  // "calendar" is the older name of the month view.
  if (view === "month" || view === "calendar") return "month";
  return view === "week" ? view : "list";
}

/** The longest range GET /api/tasks answers, in days. */
export const API_MAX_RANGE_DAYS = 366;

export interface TaskApiQuery {
  from: string;
  to: string;
  filters: TaskFilters;
}

/**
 * GET /api/tasks's query: `from`/`to` (days, both included; default today and 30 days later; at most
 * API_MAX_RANGE_DAYS apart), `status` (pending, done, all: default all), `mine` (true: only my tasks),
 * `building`, `plan`. Anything unreadable is a 400 naming the parameter.
 */
export function parseTaskApiQuery(params: URLSearchParams, today: string): TaskApiQuery {
  const errors: Record<string, string[]> = {};
  const day = (name: string, fallback: () => string) => {
    const value = params.get(name);
    if (value === null || value === "") return fallback();
    if (!isDay(value)) errors[name] = ["tasks:validation.day"];
    return value;
  };
  const from = day("from", () => today);
  // The default end counts from a readable start only (an unreadable one is already an error).
  const to = day("to", () => (errors.from ? from : addDaysUtc(from, 30)));
  if (!errors.from && !errors.to) {
    const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
    if (span < 0) errors.to = ["tasks:validation.range"];
    else if (span > API_MAX_RANGE_DAYS) errors.to = ["tasks:validation.rangeTooLong"];
  }
  const status = params.get("status") ?? "all";
  if (status !== "all" && status !== "pending" && status !== "done") errors.status = ["tasks:validation.statusFilter"];
  const mine = params.get("mine");
  if (mine !== null && mine !== "true" && mine !== "false") errors.mine = ["tasks:validation.mine"];
  const id = (name: string) => {
    const value = params.get(name);
    if (value === null || value === "") return null;
    const parsed = idOf(value);
    if (parsed === null) errors[name] = ["tasks:validation.id"];
    return parsed;
  };
  const buildingId = id("building");
  const plannedMaintenanceId = id("plan");
  if (Object.keys(errors).length) throw new ValidationError(errors, "common:errors.list.invalid", "INVALID_TASK_QUERY");
  return {
    from,
    to,
    filters: { status: status as TaskStatusFilter, buildingId, plannedMaintenanceId, assignee: mine === "true" ? "me" : null },
  };
}

function addDaysUtc(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}
