import { createCookie, data, redirect } from "@remix-run/node";
import {
  backHref,
  boardCursors,
  COLUMN_PARAM,
  INCIDENTS_PATH,
  type ListView,
  parseView,
  RESET_PARAM,
  savedFilterQuery,
} from "~/modules/incidents/list-url";
import { config } from "~/config.server";
import type { ServiceContext } from "~/core/context.server";
import { buildingPickerData } from "~/http/pickers.server";
import { formDataOf, refuseControlCharacters } from "~/http/form-action.server";
import { toastHeader } from "~/http/toast.server";
import { fallbackLng, isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import { asDomainError, ForbiddenError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { logger } from "~/lib/logger.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { ASSIGN_OTHER, BOARD_STATUSES, FILTERS_COOKIE, INCIDENT_SORTS } from "~/modules/incidents/constants";
import { parseIncidentFilters } from "~/modules/incidents/filters";
import type { BulkChangeInput } from "~/modules/incidents/schema";
import { listBoard, listBoardColumn, listFilterFacilities, listIncidents } from "~/modules/incidents/queries.server";
import { assignIncident, bulkChangeIncidents, setIncidentPriority, setIncidentStatus } from "~/modules/incidents/service.server";
import { listAssignees } from "~/modules/users/queries.server";

/**
 * The transport of /incidents (issue #12 parts 1 and 2): the remembered filters (a cookie), the data
 * of the table and the board, and the action's four intents (status, priority, assignee, bulk), each
 * one verb, answered by a redirect to the same list with a toast, or a 400/404 with the message.
 */

// ---------------------------------------------------------------------------
// The remembered filters (SPEC.md section 3: "filters" are kept in the browser)
// ---------------------------------------------------------------------------

const FILTERS_MAX_AGE = 60 * 60 * 24 * 180;

let filtersCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  filtersCookie ??= createCookie(FILTERS_COOKIE, {
    path: INCIDENTS_PATH,
    sameSite: "lax",
    httpOnly: true,
    maxAge: FILTERS_MAX_AGE,
    secure: config().APP_URL.startsWith("https://"),
  });
  return filtersCookie;
}

async function savedQuery(request: Request): Promise<string> {
  const value: unknown = await cookie().parse(request.headers.get("Cookie"));
  // Re-read through the same filter: a cookie edited by hand keeps only what a list address may hold.
  return typeof value === "string" ? savedFilterQuery(new URLSearchParams(value)) : "";
}

/**
 * Keeps the list's filters in the cookie, or restores them: /incidents without any parameter goes to
 * the saved address (a redirect); `?reset=1` forgets them (a redirect to the bare view); any other
 * address is saved (its filters, sort, page size and view). Returns the Set-Cookie header to send, if any.
 */
export async function rememberFilters(request: Request): Promise<string | null> {
  const params = new URL(request.url).searchParams;
  const saved = await savedQuery(request);
  if (params.has(RESET_PARAM)) {
    const view = parseView(params);
    throw redirect(view === "board" ? `${INCIDENTS_PATH}?view=board` : INCIDENTS_PATH, {
      headers: { "Set-Cookie": await cookie().serialize("", { maxAge: 0 }) },
    });
  }
  if (params.size === 0) {
    if (saved) throw redirect(`${INCIDENTS_PATH}?${saved}`);
    return null;
  }
  // The board's "More" (JavaScript) asks for one column: the same filters, nothing to save.
  if (params.has(COLUMN_PARAM)) return null;
  const current = savedFilterQuery(params);
  if (current === saved) return null;
  return current ? cookie().serialize(current) : cookie().serialize("", { maxAge: 0 });
}

// ---------------------------------------------------------------------------
// The data of the table and the board
// ---------------------------------------------------------------------------

/** The most users the assignee choices list (the filter, the rows' and the bulk form's selects). */
export const ASSIGNEE_CHOICES = 100;

export async function incidentListData(ctx: ServiceContext, params: URLSearchParams) {
  const view: ListView = parseView(params);
  const filters = parseIncidentFilters(params);
  const query = parseListQuery(params, { sorts: INCIDENT_SORTS, defaultSort: "createdAt", defaultDir: "desc" });

  // The board's "More" with JavaScript: the next cards of one column only.
  const only = Number(params.get(COLUMN_PARAM));
  if (view === "board" && params.has(COLUMN_PARAM) && (BOARD_STATUSES as readonly number[]).includes(only)) {
    const column = await listBoardColumn(ctx, only, filters, { after: boardCursors(params)[only] ?? null });
    return { kind: "column" as const, column };
  }

  const [types, facilities, assignees, buildingPicker] = await Promise.all([
    listIncidentTypeOptions(ctx),
    listFilterFacilities(ctx),
    listAssignees(ctx, { size: ASSIGNEE_CHOICES }),
    buildingPickerData(ctx, params, filters.buildingId, { facilityId: filters.facilityId }),
  ]);
  const options = {
    types,
    facilities,
    assignees: { items: assignees.items.map((a) => ({ id: a.id, name: `${a.name} ${a.surname}`.trim() })), total: assignees.total },
    buildingPicker,
  };
  if (view === "board") {
    const cursors = boardCursors(params);
    const columns = await listBoard(ctx, filters, cursors);
    return { kind: "list" as const, view, filters, query, options, board: { columns, cursors }, table: null };
  }
  const table = await listIncidents(ctx, query, filters);
  return { kind: "list" as const, view, filters, query, options, board: null, table };
}

// ---------------------------------------------------------------------------
// The action
// ---------------------------------------------------------------------------

export const LIST_INTENTS = ["status", "priority", "assignee", "bulk"] as const;
export type ListIntent = (typeof LIST_INTENTS)[number];

/** What a refused change answers: the translated message (shown as a toast, and beside the bulk form). */
export interface ListActionError {
  intent: ListIntent | null;
  /** The incident of a row or card form. */
  id: number | null;
  message: string;
  /** Tells two answers apart (the same message twice is two toasts). */
  at: number;
}

/** A posted id ("12"); 0 when it is not one (the verb then answers "Incident not found"). */
function postedId(formData: FormData, name = "id"): number {
  const value = formData.get(name);
  return typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : 0;
}

/** The posted ids of the bulk form: the checked rows, or every row of the page with "Select all". */
function bulkIds(formData: FormData): unknown[] {
  const field = formData.get("allOnPage") === "1" ? "pageIds" : "ids";
  return formData.getAll(field).map((v) => (typeof v === "string" && /^\d{1,10}$/.test(v) ? Number(v) : v));
}

export async function incidentListAction(ctx: ServiceContext, request: Request) {
  const url = new URL(request.url);
  const back = backHref(url.search);
  const formData = await formDataOf(request);
  const rawIntent = formData.get("intent");
  const intent = (LIST_INTENTS as readonly unknown[]).includes(rawIntent) ? (rawIntent as ListIntent) : null;
  const id = intent === "bulk" ? null : postedId(formData);
  const t = getT(isLocale(ctx.locale) ? ctx.locale : fallbackLng);
  try {
    refuseControlCharacters(formData);
    let toast: { key: string; params?: Record<string, number> };
    switch (intent) {
      case "status":
        await setIncidentStatus(ctx, id!, { status: formData.get("status") });
        toast = { key: "incidents:success.status" };
        break;
      case "priority":
        await setIncidentPriority(ctx, id!, { priority: formData.get("priority") });
        toast = { key: "incidents:success.priority" };
        break;
      case "assignee":
        // "Someone else…": the incident's assign dialog, which searches the users who reach it.
        if (formData.get("assigneeId") === ASSIGN_OTHER && id) return redirect(`/incident/${id}?dialog=assign`);
        await assignIncident(ctx, id!, { assigneeId: formData.get("assigneeId") });
        toast = { key: "incidents:success.assignee" };
        break;
      case "bulk": {
        const change = formData.get("change");
        // Posted as they came: the verb's schema refuses what is not valid.
        const { changed } = await bulkChangeIncidents(ctx, {
          ids: bulkIds(formData),
          change,
          status: formData.get("status"),
          priority: formData.get("priority"),
          assigneeId: formData.get("assigneeId"),
        } as unknown as BulkChangeInput);
        toast = { key: "incidents:success.bulk", params: { count: changed } };
        break;
      }
      default:
        return data<ListActionError>({ intent: null, id: null, message: t("incidentList:errors.unknownAction"), at: Date.now() }, { status: 400 });
    }
    return redirect(back, { headers: { "Set-Cookie": await toastHeader({ type: "success", ...toast }) } });
  } catch (error) {
    if (error instanceof ForbiddenError) throw redirect("/forbidden");
    const known = asDomainError(error);
    if (!known) {
      logger().error({ err: error, intent }, "incidents list: could not save");
      return data<ListActionError>({ intent, id, message: t("common:errors.couldNotSave"), at: Date.now() }, { status: 500 });
    }
    // The message of the first field error (e.g. "This user cannot reach the incident's location"), else the error's own.
    const fieldMessage = Object.values(known.fieldErrors ?? {}).flat()[0];
    const key = fieldMessage ?? known.messageKey;
    const message = t(key.includes(":") ? key : `common:${key}`);
    return data<ListActionError>({ intent, id, message, at: Date.now() }, { status: known.status === 404 && intent !== "bulk" ? 404 : 400 });
  }
}
