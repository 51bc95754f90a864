import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { shortIdColumnClass, tagsCell } from "~/components/lists/cells";
import { DataTable, listColumns } from "~/components/lists/data-table";
import { cellLinkClass, numberColumnClass } from "~/components/lists/styles";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import type { ListQuery, Page } from "~/lib/list-query";
import { NO_PRIORITY, SETTABLE_STATUSES } from "~/modules/incidents/constants";
import { clearFiltersHref } from "~/modules/incidents/list-url";
import type { IncidentRow } from "~/modules/incidents/queries.server";
import { type AssigneeChoice, ChangeForm, type ListActionError, locationLines } from "./shared";
import { useDates } from "~/lib/use-dates";
import { useHydrated } from "~/lib/use-hydrated";

const column = listColumns<IncidentRow>();

/** The id of the bulk form: the rows' checkboxes belong to it through their `form` attribute. */
export const BULK_FORM_ID = "incident-bulk";

const rowBoxes = () => [...document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][form="${BULK_FORM_ID}"][name="ids"]`)];
const allBox = () => document.querySelector<HTMLInputElement>(`input[type="checkbox"][form="${BULK_FORM_ID}"][name="allOnPage"]`);

export interface IncidentsTableProps {
  page: Page<IncidentRow>;
  query: ListQuery;
  filtered: boolean;
  assignees: AssigneeChoice[];
}

/**
 * The incidents table (the default view): a checkbox per row for the bulk form, the short id and title
 * linking to the incident, location, then priority, status and assignee each changed in place by a
 * tiny form, creation time (in the entity's time zone), occurrences, incident type and tags. Server-sorted and paged.
 */
export function IncidentsTable({ page, query, filtered, assignees }: IncidentsTableProps) {
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
        meta: { className: "w-10" },
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
        meta: { sortKey: "shortId", className: shortIdColumnClass },
        cell: (c) => (
          <a href={`/incident/${c.row.original.id}`} className={cellLinkClass}>
            #{c.getValue()}
          </a>
        ),
      }),
      column.accessor("title", {
        header: t("incidents:fields.title"),
        meta: { sortKey: "title", className: "min-w-48" },
        cell: (c) => (
          <a href={`/incident/${c.row.original.id}`} className={`${cellLinkClass} line-clamp-2`}>
            {c.getValue()}
          </a>
        ),
      }),
      column.display({
        id: "location",
        header: t("incidents:fields.location"),
        meta: { className: "min-w-44" },
        cell: (c) => {
          const lines = locationLines(c.row.original.location, t);
          return lines.length ? (
            <div className="grid text-sm">
              {lines.map((line, i) => (
                <span key={i} className={i ? "text-muted-foreground" : undefined}>
                  {line}
                </span>
              ))}
            </div>
          ) : (
            <span className="text-muted-foreground">{t("location.none")}</span>
          );
        },
      }),
      column.accessor("priority", {
        header: t("incidents:fields.priority"),
        meta: { sortKey: "priority" },
        cell: (c) => (
          <ChangeForm row={c.row.original} field="priority" assignees={assignees} label={t("change.priority", { shortId: c.row.original.shortId })} />
        ),
      }),
      column.accessor("status", {
        header: t("incidents:fields.status"),
        meta: { sortKey: "status" },
        cell: (c) => <ChangeForm row={c.row.original} field="status" assignees={assignees} label={t("change.status", { shortId: c.row.original.shortId })} />,
      }),
      column.display({
        id: "assignee",
        header: t("incidents:fields.assignee"),
        meta: { sortKey: "assignee" },
        cell: (c) => (
          <ChangeForm row={c.row.original} field="assignee" assignees={assignees} label={t("change.assignee", { shortId: c.row.original.shortId })} />
        ),
      }),
      column.accessor("createdAt", {
        header: t("incidents:fields.createdAt"),
        meta: { sortKey: "createdAt", className: "whitespace-nowrap" },
        cell: (c) => <time dateTime={c.getValue()}>{date(c.getValue())}</time>,
      }),
      column.accessor("occurrences", {
        header: t("incidents:fields.occurrences"),
        meta: { sortKey: "occurrences", className: numberColumnClass },
      }),
      column.display({
        id: "type",
        header: t("incidents:fields.incidentType"),
        cell: (c) => c.row.original.incidentType?.name ?? <span className="text-muted-foreground">{t("type.none")}</span>,
      }),
      column.accessor("tags", { header: t("incidents:fields.tags"), cell: tagsCell }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- i18n.language changes t and date
    [t, i18n.language, assignees, date],
  );
  return (
    <DataTable
      columns={columns}
      page={page}
      query={query}
      filtered={filtered}
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
  );
}

export interface BulkFormProps {
  /** The ids of the rows on the page ("Select all on this page" without JavaScript). */
  pageIds: number[];
  assignees: AssigneeChoice[];
  /** The bulk form's refusal (e.g. "Select at least one incident"), shown beside it. */
  error: ListActionError | null;
}

/**
 * One change for the selected rows (`intent=bulk`): status, priority or assignee, all or nothing. The
 * rows' checkboxes and "Select all on this page" are inputs of this form through their `form`
 * attribute, so it works without JavaScript.
 */
export function BulkForm({ pageIds, assignees, error }: BulkFormProps) {
  const { t } = useTranslation("incidentList");
  const hydrated = useHydrated();
  const navigation = useNavigation();
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
  const [change, setChange] = useState("status");
  const ids = { change: useId(), status: useId(), priority: useId(), assignee: useId(), error: useId() };
  const shown = (field: string) => !hydrated || change === field;
  return (
    <Form
      method="post"
      id={BULK_FORM_ID}
      preventScrollReset
      aria-label={t("bulk.label")}
      aria-describedby={error ? ids.error : undefined}
      className="grid gap-3 rounded-md border bg-muted/30 p-3 sm:flex sm:flex-wrap sm:items-end"
    >
      <input type="hidden" name="intent" value="bulk" />
      {pageIds.map((id) => (
        <input key={id} type="hidden" name="pageIds" value={id} />
      ))}
      <p className="text-sm text-muted-foreground sm:basis-full">{t("bulk.hint")}</p>
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
            {SETTABLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`incidents:status.${s}`)}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      {shown("priority") ? (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.priority}>{t("bulk.priority")}</Label>
          <Select id={ids.priority} name="priority" defaultValue="2" wrapperClassName="sm:w-44">
            <option value={NO_PRIORITY}>{t("incidents:priority.none")}</option>
            {[0, 1, 2, 3].map((p) => (
              <option key={p} value={p}>
                {t(`incidents:priority.${p}`)}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      {shown("assignee") ? (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.assignee}>{t("bulk.assignee")}</Label>
          <Select id={ids.assignee} name="assigneeId" defaultValue="none" wrapperClassName="sm:w-56">
            <option value="none">{t("incidents:unassigned")}</option>
            {assignees.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <Button type="submit" disabled={busy}>
        {t("bulk.apply")}
      </Button>
      {error ? (
        <p id={ids.error} role="alert" className="text-sm font-medium text-destructive sm:basis-full">
          {error.message}
        </p>
      ) : null}
    </Form>
  );
}
