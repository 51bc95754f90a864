import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import type { RootLoaderData } from "~/root";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageToasts } from "~/components/shell/toaster";
import { Button } from "~/components/ui/button";
import { Select } from "~/components/ui/select";
import type { ToastData } from "~/components/ui/toast";
import { cn } from "~/lib/utils";
import { ASSIGN_OTHER, NO_PRIORITY, SETTABLE_STATUSES } from "~/modules/incidents/constants";
import type { IncidentLocation, IncidentRow } from "~/modules/incidents/queries.server";
import { useHydrated } from "~/lib/use-hydrated";

/** What the action answers when it refuses a change (see http/incident-list.server.ts). */
export interface ListActionError {
  intent: string | null;
  id: number | null;
  message: string;
  at: number;
}

export interface AssigneeChoice {
  id: number;
  name: string;
}

/** "North campus / Main building / Room 1.02, floor 1" and the equipment on a second line. */
export function locationLines(location: IncidentLocation, t: (key: string, values?: Record<string, unknown>) => string): string[] {
  const place = [location.facilityName, location.buildingName, location.roomName].filter(Boolean).join(" / ");
  const lines: string[] = [];
  if (place) lines.push(location.floor ? t("incidentList:location.withFloor", { place, floor: location.floor }) : place);
  else if (location.text) lines.push(location.text);
  if (location.equipmentName) {
    lines.push(
      location.internalReference
        ? t("incidentList:location.equipmentRef", { name: location.equipmentName, ref: location.internalReference })
        : location.equipmentName,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------
// Refused changes as toasts
// ---------------------------------------------------------------------------

const ToastsContext = createContext<(error: ListActionError) => void>(() => {});

/**
 * The page's error toasts: the answer of a form posted without JavaScript (or the bulk form) and the
 * refusals of the row and card forms posted by fetchers. The success toasts come with the redirect
 * (the root's flash toast).
 */
export function ListToasts({ actionError, children }: { actionError: ListActionError | null; children: ReactNode }) {
  const [errors, setErrors] = useState<ListActionError[]>([]);
  const report = useCallback((error: ListActionError) => {
    setErrors((current) => (current.some((e) => e.at === error.at && e.id === error.id) ? current : [...current, error].slice(-3)));
  }, []);
  const toasts: ToastData[] = [...(actionError ? [actionError] : []), ...errors.filter((e) => !(actionError && e.at === actionError.at))].map((e) => ({
    id: `${e.at}-${e.id ?? ""}`,
    type: "error",
    title: e.message,
  }));
  return (
    <ToastsContext.Provider value={report}>
      {children}
      <PageToasts toasts={toasts} />
    </ToastsContext.Provider>
  );
}

/** Reports the refusal a fetcher received as a toast. */
export function useReportError(data: unknown, state: string) {
  const report = useContext(ToastsContext);
  useEffect(() => {
    if (state !== "idle" || !data || typeof data !== "object" || !("message" in data)) return;
    report(data as ListActionError);
  }, [data, state, report]);
}

// ---------------------------------------------------------------------------
// One change of one incident: status, priority or assignee
// ---------------------------------------------------------------------------

export type ChangeField = "status" | "priority" | "assignee";

/** The name the verb reads for a field. */
export const fieldName = (field: ChangeField) => (field === "assignee" ? "assigneeId" : field);

/** The fetcher of an incident's field: one per incident and field, shared by its form and the board's drop. */
export const changeFetcherKey = (field: ChangeField, id: number) => `incident-${field}-${id}`;

function currentValue(row: IncidentRow, field: ChangeField): string {
  if (field === "status") return String(row.status);
  if (field === "priority") return row.priority === null ? NO_PRIORITY : String(row.priority);
  return row.assignee ? String(row.assignee.id) : "none";
}

export interface ChangeFormProps {
  row: IncidentRow;
  field: ChangeField;
  assignees: AssigneeChoice[];
  /** The select's accessible name ("Status of #12"). */
  label: string;
  /** Called when the select submits (with JavaScript), e.g. to announce a move. */
  onSubmitted?: (value: string) => void;
  /** Fills a narrow container (a board card): the select takes the width left by Save, and wraps. */
  fill?: boolean;
}

/**
 * A tiny form changing one field of one incident (`intent` = the field): a select and Save. Without
 * JavaScript, Save posts it and the page comes back with a toast; with JavaScript the select posts on
 * change through a fetcher (Save is left out), shows the new value at once and falls back to the old one
 * with an error toast when the change is refused.
 */
export function ChangeForm({ row, field, label, onSubmitted, fill = false }: ChangeFormProps) {
  const { t } = useTranslation("incidentList");
  const hydrated = useHydrated();
  const fetcher = useFetcher<ListActionError>({ key: changeFetcherKey(field, row.id) });
  useReportError(fetcher.data, fetcher.state);
  const name = fieldName(field);
  const profile = useRouteLoaderData<RootLoaderData>("root")?.profile;
  const viewer = profile ? { id: profile.id, name: `${profile.name} ${profile.surname}`.trim() } : null;
  const posted = fetcher.formData?.get(name);
  const value = typeof posted === "string" ? posted : currentValue(row, field);

  let options: { value: string; label: string }[];
  if (field === "status") options = SETTABLE_STATUSES.map((s) => ({ value: String(s), label: t(`incidents:status.${s}`) }));
  else if (field === "priority") {
    options = [{ value: NO_PRIORITY, label: t("incidents:priority.none") }, ...[0, 1, 2, 3].map((p) => ({ value: String(p), label: t(`incidents:priority.${p}`) }))];
  } else {
    // A row offers "Unassigned", the viewer, the current assignee and "Someone else…" (the incident's
    // searchable assign dialog): 25 rows each listing every user made the page 400 KB at scale.
    options = [{ value: "none", label: t("incidents:unassigned") }];
    if (viewer) options.push({ value: String(viewer.id), label: t("change.me", { name: viewer.name }) });
    if (row.assignee && row.assignee.id !== viewer?.id) options.push({ value: String(row.assignee.id), label: row.assignee.name });
    options.push({ value: ASSIGN_OTHER, label: t("change.other") });
  }

  return (
    <fetcher.Form method="post" preventScrollReset className={cn("flex items-center gap-1", fill && "flex-wrap")}>
      <input type="hidden" name="intent" value={field} />
      <input type="hidden" name="id" value={row.id} />
      <Select
        name={name}
        aria-label={label}
        value={value}
        wrapperClassName={fill ? "min-w-0 flex-1 basis-28" : "w-auto min-w-0"}
        className={fill ? "ui-select-sm" : "ui-select-sm min-w-[8.5rem]"}
        onChange={(event) => {
          const form = event.currentTarget.form;
          // (A choice made while the page hydrated comes back as the current value: nothing to post.)
          if (!form || event.currentTarget.value === currentValue(row, field)) return;
          onSubmitted?.(event.currentTarget.value);
          fetcher.submit(form, { method: "post", preventScrollReset: true });
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      {hydrated ? null : (
        <Button type="submit" variant="outline" size="sm" aria-label={t("change.saveLabel", { field: label })}>
          {t("change.save")}
        </Button>
      )}
    </fetcher.Form>
  );
}
