import { Form, Link, useFetcher, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { type CSSProperties, useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable, listColumns } from "~/components/lists/data-table";
import { cellLinkClass } from "~/components/lists/styles";
import { TagList } from "~/components/lists/tag-list";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import type { ListQuery, Page } from "~/lib/list-query";
import { NO_PRIORITY, SETTABLE_STATUSES } from "~/modules/incidents/constants";
import { BULK_PARAM, CHOICES_PARAM, clearFiltersHref, INCIDENTS_PATH, withParam } from "~/modules/incidents/list-url";
import type { IncidentRow } from "~/modules/incidents/queries.server";
import { dueWords, runningDue } from "~/modules/service-levels/due";
import type { RootLoaderData } from "~/root";
import { type AssigneeChoice, type ListActionError, locationLines, priorityBadge, StatusSelect } from "./shared";
import { useDates } from "~/lib/use-dates";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";
import { Options } from "~/components/ui/options";

/**
 * A row of the table as the page carries it (and hydrates): what the cells show, the place already
 * written out (decision 021: the page's data is a third of its weight).
 */
export interface TableIncident {
  id: number;
  shortId: number;
  title: string;
  priority: IncidentRow["priority"];
  status: IncidentRow["status"];
  assignee: AssigneeChoice | null;
  createdAt: string;
  occurrences: number;
  tags: string[];
  /** The incident type's name. */
  type: string | null;
  /** "North campus / Main building / Room 1.02, floor 1 · Boiler (B-1)". */
  place: string | null;
  /** Its service level written out ("due in 3 h 20 min", "overdue by 2 h 5 min", "missed"); null: nothing to show. */
  due: { text: string; late: boolean } | null;
}

/** The service level of a row: its running due time from `now`, else "missed" when a target was met late. */
function dueOf(row: IncidentRow, t: (key: string, values?: Record<string, unknown>) => string, now: Date): TableIncident["due"] {
  if (row.nextDueAt) {
    const state = runningDue(row.nextDueAt, now);
    return { text: dueWords(state, t), late: state.kind === "overdueBy" };
  }
  return row.serviceLevelMissed ? { text: t("serviceLevels:due.missed"), late: true } : null;
}

/** The table's row of an incident, with `t` of the viewer's language (the loader calls it). */
export function tableIncident(row: IncidentRow, t: (key: string, values?: Record<string, unknown>) => string, now: Date = new Date()): TableIncident {
  const place = locationLines(row.location, t).join(" · ");
  return {
    id: row.id,
    shortId: row.shortId,
    title: row.title,
    priority: row.priority,
    status: row.status,
    assignee: row.assignee,
    createdAt: row.createdAt,
    occurrences: row.occurrences,
    tags: row.tags,
    type: row.incidentType?.name ?? null,
    place: place || null,
    due: dueOf(row, t, now),
  };
}

const column = listColumns<TableIncident>();

/** The id of the bulk form: the rows' checkboxes belong to it through their `form` attribute. */
export const BULK_FORM_ID = "incident-bulk";

const rowBoxes = () => [...document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][form="${BULK_FORM_ID}"][name="ids"]`)];
const allBox = () => document.querySelector<HTMLInputElement>(`input[type="checkbox"][form="${BULK_FORM_ID}"][name="allOnPage"]`);

export interface IncidentsTableProps {
  page: Page<TableIncident>;
  query: ListQuery;
  filtered: boolean;
}

/**
 * The incidents table (the default view), sized to fit 1280 px beside the menu (decision 021): a checkbox
 * per row for the bulk form; the short id; the title linking to the incident with its place, incident
 * type and tags under it; the priority as a badge; the status, changed in place by a tiny form (the one
 * control of a row); the assignee's name; the creation time (in the entity's time zone) and the
 * occurrences. Priority and assignee change in the bulk form, on the incident's view or on the board.
 * Server-sorted and paged. Below 1280 px each row is a card (the `it-*` classes, app/styles/tailwind.css):
 * number and status first, then the title, then the rest.
 */
export function IncidentsTable({ page, query, filtered }: IncidentsTableProps) {
  const { t, i18n } = useTranslation("incidentList");
  const date = useDates().dateTime;
  const columns = useMemo(
    () => [
      column.display({
        id: "select",
        header: () => (
          <Checkbox
            form={BULK_FORM_ID}
            name="allOnPage"
            value="1"
            aria-label={t("select.all")}
            onChange={(event) => {
              for (const box of rowBoxes()) box.checked = event.currentTarget.checked;
            }}
          />
        ),
        meta: { className: "it-sel" },
        cell: (c) => (
          <Checkbox
            form={BULK_FORM_ID}
            name="ids"
            value={c.row.original.id}
            aria-label={t("select.one", { shortId: c.row.original.shortId })}
            onChange={() => {
              const all = allBox();
              const boxes = rowBoxes();
              if (all) {
                all.checked = boxes.every((b) => b.checked);
                all.indeterminate = !all.checked && boxes.some((b) => b.checked);
              }
            }}
          />
        ),
      }),
      column.accessor("shortId", {
        header: t("incidents:fields.shortId"),
        meta: { sortKey: "shortId", className: "it-id" },
        // Text: the title beside it links to the incident (one link per row, not two to the same place).
        cell: (c) => `#${c.getValue()}`,
      }),
      column.accessor("title", {
        header: t("incidents:fields.title"),
        meta: { sortKey: "title", className: "it-title" },
        cell: (c) => {
          const row = c.row.original;
          return (
            <>
              <a href={`/incident/${row.id}`} className={`${cellLinkClass} line-clamp-2`}>
                {c.getValue()}
              </a>
              {row.place ? <p className="it-place">{row.place}</p> : null}
              {row.type || row.tags.length ? (
                <div className="it-kind">
                  {row.type ? <span>{row.type}</span> : null}
                  <TagList tags={row.tags} />
                </div>
              ) : null}
            </>
          );
        },
      }),
      column.accessor("priority", {
        header: t("incidents:fields.priority"),
        meta: { sortKey: "priority", className: "it-pri" },
        cell: (c) => priorityBadge(c.getValue(), t),
      }),
      column.accessor("status", {
        header: t("incidents:fields.status"),
        meta: { sortKey: "status", className: "it-st" },
        cell: (c) => <StatusSelect row={c.row.original} label={t("change.status", { shortId: c.row.original.shortId })} />,
      }),
      column.display({
        id: "assignee",
        header: t("incidents:fields.assignee"),
        meta: { sortKey: "assignee", className: "it-as" },
        cell: (c) => c.row.original.assignee?.name ?? <span className="text-muted-foreground">{t("incidents:unassigned")}</span>,
      }),
      column.accessor("createdAt", {
        header: t("incidents:fields.createdAt"),
        // The due time sorts from this header too: it is shown here (decision 064), not in a column of its own.
        meta: { sortKey: "createdAt", moreSorts: [{ key: "due", label: t("table.sortDue") }], className: "it-at" },
        // The service level goes under the creation time, the clock's start, rather than in a column of
        // its own: the table keeps to the width of a 1280 px screen in all three languages.
        cell: (c) => {
          const due = c.row.original.due;
          return (
            <>
              <time dateTime={c.getValue()}>{date(c.getValue())}</time>
              {due ? <span className={cn("block", due.late && "font-medium text-destructive")}>{due.text}</span> : null}
            </>
          );
        },
      }),
      column.accessor("occurrences", {
        header: t("incidents:fields.occurrences"),
        meta: { sortKey: "occurrences", className: "it-occ" },
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- i18n.language changes t and date
    [t, i18n.language, date],
  );
  // The labels of the cards' assignee, creation time and occurrences (app/styles/tailwind.css), as CSS strings.
  const label = (field: string) => JSON.stringify(t("table.cardLabel", { field: t(`incidents:fields.${field}`) }) + " ");
  const labels = { "--it-as": label("assignee"), "--it-at": label("createdAt"), "--it-occ": label("occurrences") } as CSSProperties;
  return (
    <div style={labels} className="min-w-0">
      <DataTable
        columns={columns}
        page={page}
        query={query}
        filtered={filtered}
        className="incident-table"
        cards={false}
        caption={t("table.caption")}
        emptyText={t("table.empty")}
        noMatchText={
          <span className="grid justify-items-center gap-2">
            <span>{t("table.noMatch")}</span>
            <Link to={clearFiltersHref("table")} className={cellLinkClass}>
              {t("clearFilters")}
            </Link>
          </span>
        }
      />
    </div>
  );
}

/** What the route answers for `?choices=assignees` (the bulk form's fetch). */
interface AssigneeChoicesAnswer {
  kind: "choices";
  assignees: AssigneeChoice[];
}

export interface BulkFormProps {
  /** The rows of the page: their ids ("Select all on this page" without JavaScript) and assignees. */
  rows: TableIncident[];
  /** Everyone to assign to, when the page was asked for them (`?bulk=assignee`), else null. */
  everyone: AssigneeChoice[] | null;
  /** The bulk form's refusal (e.g. "Select at least one incident"), shown beside it. */
  error: ListActionError | null;
}

/**
 * One change for the selected rows (`intent=bulk`): status, priority or assignee, all or nothing. The
 * rows' checkboxes and "Select all on this page" are inputs of this form through their `form`
 * attribute, so it works without JavaScript. The assignee choices start with Unassigned, the viewer and
 * the people assigned on the page; everyone comes on demand (decision 021): fetched once the form is set
 * to change the assignee with JavaScript, through the link "Everyone…" (`?bulk=assignee`) without it.
 */
export function BulkForm({ rows, everyone, error }: BulkFormProps) {
  const { t } = useTranslation("incidentList");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const location = useLocation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "bulk";
  // After an applied change (with JavaScript the rows stay), the selection starts again.
  const submitted = useRef(false);
  useEffect(() => {
    if (busy) submitted.current = true;
    else if (navigation.state === "idle" && submitted.current) {
      submitted.current = false;
      if (!error) for (const box of [...rowBoxes(), allBox()]) if (box) box.checked = box.indeterminate = false;
    }
  }, [busy, navigation.state, error]);
  const [change, setChange] = useState(everyone ? "assignee" : "status");
  const choices = useFetcher<AssigneeChoicesAnswer>();
  const fetched = choices.data?.kind === "choices" ? choices.data.assignees : null;
  useEffect(() => {
    if (hydrated && change === "assignee" && !everyone && !fetched && choices.state === "idle") choices.load(`${INCIDENTS_PATH}?${CHOICES_PARAM}=assignees`);
  }, [hydrated, change, everyone, fetched, choices]);
  const profile = useRouteLoaderData<RootLoaderData>("root")?.profile;
  const viewer = profile ? { id: profile.id, name: `${profile.name} ${profile.surname}`.trim() } : null;
  const people = everyone ?? fetched ?? pageAssignees(rows);
  const ids = { change: useId(), status: useId(), priority: useId(), assignee: useId(), error: useId() };
  const shown = (field: string) => !hydrated || change === field;
  return (
    // Folded on a phone under its name (styles: `.phone-disclosure`); open after a refused change or
    // with everyone to choose from, and shown once an incident is selected.
    <details open={error !== null || everyone !== null} className="phone-disclosure">
      <summary className="phone-disclosure-summary">{t("bulk.label")}</summary>
      <Form
        method="post"
        id={BULK_FORM_ID}
        preventScrollReset
        aria-label={t("bulk.label")}
        aria-describedby={error ? ids.error : undefined}
        className="grid grid-cols-2 items-end gap-3 rounded-md border bg-muted/30 p-3 sm:flex sm:flex-wrap"
      >
        <input type="hidden" name="intent" value="bulk" />
        <input type="hidden" name="pageIds" value={rows.map((row) => row.id).join(",")} />
        <p className="col-span-2 text-sm text-muted-foreground sm:basis-full">{t("bulk.hint")}</p>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.change}>{t("bulk.change")}</Label>
          <Select id={ids.change} name="change" value={change} onChange={(e) => setChange(e.currentTarget.value)} wrapperClassName="sm:w-40">
            <option value="status">{t("incidents:fields.status")}</option>
            <option value="priority">{t("incidents:fields.priority")}</option>
            <option value="assignee">{t("incidents:fields.assignee")}</option>
          </Select>
        </div>
        {shown("status") ? (
          <div className="grid gap-1.5">
            <Label htmlFor={ids.status}>{t("bulk.status")}</Label>
            <Select id={ids.status} name="status" defaultValue="1" wrapperClassName="sm:w-44">
              <Options values={SETTABLE_STATUSES} label={(s) => t(`incidents:status.${s}`)} />
            </Select>
          </div>
        ) : null}
        {shown("priority") ? (
          <div className="grid gap-1.5">
            <Label htmlFor={ids.priority}>{t("bulk.priority")}</Label>
            <Select id={ids.priority} name="priority" defaultValue="2" wrapperClassName="sm:w-44">
              <option value={NO_PRIORITY}>{t("incidents:priority.none")}</option>
              <Options values={[0, 1, 2, 3]} label={(p) => t(`incidents:priority.${p}`)} />
            </Select>
          </div>
        ) : null}
        {shown("assignee") ? (
          <div className="grid gap-1.5">
            <Label htmlFor={ids.assignee}>{t("bulk.assignee")}</Label>
            <Select id={ids.assignee} name="assigneeId" defaultValue="none" wrapperClassName="sm:w-56" aria-busy={choices.state === "loading" || undefined}>
              <option value="none">{t("incidents:unassigned")}</option>
              {viewer ? <option value={viewer.id}>{t("bulk.me", { name: viewer.name })}</option> : null}
              {people
                .filter((a) => a.id !== viewer?.id)
                .map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
            </Select>
            {!hydrated && !everyone ? (
              <Link to={withParam(location.search, BULK_PARAM, "assignee")} preventScrollReset className={`${cellLinkClass} text-sm`}>
                {t("bulk.everyone")}
              </Link>
            ) : null}
          </div>
        ) : null}
        <Button type="submit" disabled={busy} className="col-span-2">
          {t("bulk.apply")}
        </Button>
        {error ? (
          <p id={ids.error} role="alert" className="col-span-2 text-sm font-medium text-destructive sm:basis-full">
            {error.message}
          </p>
        ) : null}
      </Form>
    </details>
  );
}

/** The people assigned to the page's incidents, each once, by name. */
function pageAssignees(rows: TableIncident[]): AssigneeChoice[] {
  const found = new Map<number, AssigneeChoice>();
  for (const row of rows) if (row.assignee) found.set(row.assignee.id, { id: row.assignee.id, name: row.assignee.name });
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}
