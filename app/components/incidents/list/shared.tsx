import { Form, useFetcher } from "@remix-run/react";
import { createContext, Fragment, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageToasts } from "~/components/shell/toaster";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { ToastData } from "~/components/ui/toast";
import { SETTABLE_STATUSES } from "~/modules/incidents/constants";
import type { IncidentLocation, IncidentRow } from "~/modules/incidents/queries.server";
import { useHydrated } from "~/lib/use-hydrated";
import { Options } from "~/components/ui/options";

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
// The priority as text, the status as a form
// ---------------------------------------------------------------------------

const PRIORITY_BADGE: Record<string, "destructive" | "warning" | "secondary" | "outline"> = {
  "3": "destructive",
  "2": "warning",
  "1": "secondary",
  "0": "outline",
  none: "outline",
};

/** The key of a priority in `incidents:priority` ("none" for Not Selected). */
export const priorityKey = (priority: number | null) => (priority === null ? "none" : String(priority));

/** An incident's priority as a badge (Critical in red ... Not Selected outlined); no hook, so a table cell may call it. */
export function priorityBadge(priority: number | null, t: (key: string) => string, className?: string) {
  const key = priorityKey(priority);
  return (
    <Badge variant={PRIORITY_BADGE[key]} className={className}>
      {t(`incidents:priority.${key}`)}
    </Badge>
  );
}

/** The fetcher of an incident's status: one per incident, shared by its select and the board's drop. */
export const statusFetcherKey = (id: number) => `incident-status-${id}`;

/** The id of the page's one status form: every row's and card's select and Save belong to it. */
export const STATUS_FORM_ID = "incident-status";

/**
 * The page's status form (`intent=status`), empty: the rows' and cards' status selects and Save buttons
 * join it through their `form` attribute, so a page carries one form, not one per incident (decision 021).
 * Without JavaScript, a Save posts every select of the page, its own `id`, and the action reads that
 * incident's select (`status-{id}`).
 */
export function StatusFormHost() {
  return (
    <Form method="post" id={STATUS_FORM_ID} preventScrollReset hidden>
      <input type="hidden" name="intent" value="status" />
    </Form>
  );
}

export interface StatusSelectProps {
  row: Pick<IncidentRow, "id" | "status">;
  /** The select's accessible name ("Status of #12"). */
  label: string;
  /** Called when the select submits (with JavaScript), e.g. to announce a move. */
  onSubmitted?: (value: string) => void;
  /** Fills a narrow container (a board card). */
  fill?: boolean;
}

/**
 * The status of one incident, changed in place: a select and Save, in the page's status form
 * (`StatusFormHost`). Without JavaScript, Save posts it and the page comes back with a toast; with
 * JavaScript the select posts on change through the incident's fetcher (Save is left out), shows the new
 * value at once and falls back to the old one with an error toast when the change is refused. Save wraps
 * under the select when the cell is narrow.
 */
export function StatusSelect({ row, label, onSubmitted, fill = false }: StatusSelectProps) {
  const { t } = useTranslation("incidentList");
  const hydrated = useHydrated();
  const fetcher = useFetcher<ListActionError>({ key: statusFetcherKey(row.id) });
  useReportError(fetcher.data, fetcher.state);
  const posted = fetcher.formData?.get("status");
  const current = String(row.status);
  const value = typeof posted === "string" ? posted : current;

  // A bare select (not ui/Select) and, in a table cell, no box around it and Save: a page has one per
  // incident, each character counts 25 to 100 times.
  const Box = fill ? "div" : Fragment;
  return (
    <Box {...(fill ? { className: "incident-status" } : {})}>
      <span className={fill ? "ui-select-chevron relative min-w-0 flex-1 basis-28" : "ui-select-chevron status-select"}>
        <select
          form={STATUS_FORM_ID}
          name={`status-${row.id}`}
          aria-label={label}
          value={value}
          className="ui-control ui-select-sm appearance-none pr-10"
          onChange={(event) => {
            const status = event.currentTarget.value;
            // (A choice made while the page hydrated comes back as the current value: nothing to post.)
            if (status === current) return;
            onSubmitted?.(status);
            fetcher.submit({ intent: "status", id: String(row.id), status }, { method: "post", preventScrollReset: true });
          }}
        >
          <Options values={SETTABLE_STATUSES} label={(s) => t(`incidents:status.${s}`)} />
        </select>
      </span>
      {hydrated ? null : (
        <Button form={STATUS_FORM_ID} name="id" value={row.id} variant="outline" size="sm" aria-label={t("change.saveLabel", { field: label })}>
          {t("change.save")}
        </Button>
      )}
    </Box>
  );
}
