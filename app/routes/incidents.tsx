import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { IncidentFilters } from "~/components/incidents/list/incident-filters";
import { BulkForm, IncidentsTable, tableIncident } from "~/components/incidents/list/incidents-table";
import { ListToasts, type ListActionError, StatusFormHost } from "~/components/incidents/list/shared";
import type { ServiceContext } from "~/core/context.server";
import { buttonVariants } from "~/components/ui/button";
import { bulkIds, listChange, postedStatus, rememberFilters } from "~/http/incident-list.server";
import { buildingPickerData } from "~/http/pickers.server";
import { fallbackLng, isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import { screenAction, screenLoader } from "~/http/screen.server";
import { parseListQuery } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { BOARD_STATUSES, INCIDENT_SORTS } from "~/modules/incidents/constants";
import { hasFilters, parseIncidentFilters } from "~/modules/incidents/filters";
import { boardCursors, BULK_PARAM, CHOICES_PARAM, COLUMN_PARAM, filtersPanelOpen, LIST_VIEWS, type ListView, parseView, viewHref } from "~/modules/incidents/list-url";
import { listBoard, listBoardColumn, listFilterFacilities, listIncidents } from "~/modules/incidents/queries.server";
import type { BulkChangeInput } from "~/modules/incidents/schema";
import { IncidentStatus } from "~/db/enums";
import { bulkChangeIncidents, setIncidentStatus } from "~/modules/incidents/service.server";
import { listAssignees } from "~/modules/users/queries.server";

/**
 * The board loads apart from the table (JavaScript per page): the table, the default view,
 * does not download it. The server renders the document whole (entry.server.tsx waits for every part),
 * so without JavaScript nothing changes; in the browser the board's HTML stays as sent until its script
 * is there, then hydrates.
 */
const IncidentBoard = lazy(() => import("~/components/incidents/list/incident-board").then((m) => ({ default: m.IncidentBoard })));

/**
 * /incidents: the incidents in the viewer's reach as a table (`?view=table`,
 * the default) or a kanban board (`?view=board`), with the same filters, all in the URL. The last
 * filters are remembered in a cookie: /incidents without parameters opens them again. The action
 * changes the status of one incident (a row or a card), or the status, priority or assignee of the
 * selected ones (`intent=bulk`). Priority and assignee of one incident change on its view or in the
 * bulk form (decision 021).
 */
export const loader = screenLoader(async ({ ctx, request, url }) => {
  const setCookie = await rememberFilters(request);
  return data(await listData(ctx, url.searchParams), { headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
});

/** The most users the assignee choices list (the filter's and the bulk form's selects). */
const ASSIGNEE_CHOICES = 100;

async function assigneeChoices(ctx: ServiceContext) {
  const assignees = await listAssignees(ctx, { size: ASSIGNEE_CHOICES });
  return assignees.items.map((a) => ({ id: a.id, name: `${a.name} ${a.surname}`.trim() }));
}

async function listData(ctx: ServiceContext, params: URLSearchParams) {
  const view: ListView = parseView(params);
  const filters = parseIncidentFilters(params);
  const query = parseListQuery(params, { sorts: INCIDENT_SORTS, defaultSort: "createdAt", defaultDir: "desc" });

  // The board's "More" with JavaScript: the next cards of one column only.
  const only = Number(params.get(COLUMN_PARAM));
  if (view === "board" && params.has(COLUMN_PARAM) && (BOARD_STATUSES as readonly number[]).includes(only)) {
    const column = await listBoardColumn(ctx, only, filters, { after: boardCursors(params)[only] ?? null });
    return { kind: "column" as const, column };
  }
  // The bulk form's assignee choices with JavaScript, fetched when it is set to change the assignee.
  if (params.get(CHOICES_PARAM) === "assignees") return { kind: "choices" as const, assignees: await assigneeChoices(ctx) };

  // The long choice lists only when asked for (decision 021): the "More filters" panel's when it is
  // open, everyone for the bulk form with `?bulk=assignee` (without JavaScript).
  const panel = filtersPanelOpen(params, filters);
  const everyone = view === "table" && params.get(BULK_PARAM) === "assignee";
  const [choices, assignees] = await Promise.all([
    panel
      ? Promise.all([
          listIncidentTypeOptions(ctx),
          listFilterFacilities(ctx),
          buildingPickerData(ctx, params, filters.buildingId, { facilityId: filters.facilityId }),
        ]).then(([types, facilities, buildingPicker]) => ({ types, facilities, buildingPicker }))
      : null,
    panel || everyone ? assigneeChoices(ctx) : null,
  ]);
  const filterChoices = choices && assignees ? { ...choices, assignees } : null;
  if (view === "board") {
    const cursors = boardCursors(params);
    const columns = await listBoard(ctx, filters, cursors);
    return { kind: "list" as const, view, filters, query, filterChoices, everyone: null, board: { columns, cursors }, table: null };
  }
  const page = await listIncidents(ctx, query, filters);
  const t = getT(isLocale(ctx.locale) ? ctx.locale : fallbackLng);
  const table = { ...page, items: page.items.map((row) => tableIncident(row, t)) };
  return { kind: "list" as const, view, filters, query, filterChoices, everyone: everyone ? assignees : null, board: null, table };
}

export const action = screenAction({
  intents: {
    status: listChange("incidents:success.status", async ({ ctx, formData }, id) => {
      await setIncidentStatus(ctx, id, { status: postedStatus(formData, id) });
    }),
    bulk: listChange("incidents:success.bulk", async ({ ctx, formData }) => {
      // Posted as they came: the verb's schema refuses what is not valid.
      const input = { ids: bulkIds(formData), change: formData.get("change"), status: formData.get("status"), priority: formData.get("priority"), assigneeId: formData.get("assigneeId") };
      const { changed } = await bulkChangeIncidents(ctx, input as unknown as BulkChangeInput);
      return { count: changed };
    }),
  },
});

/** The list's address with every status chosen, Archived included (from the first page). */
function withArchived(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("status");
  params.delete("page");
  for (const status of Object.values(IncidentStatus)) params.append("status", String(status));
  return `?${params}`;
}

export default function Incidents() {
  const { t } = useTranslation("incidentList");
  const result = useLoaderData<typeof loader>();
  const actionError = (useActionData<typeof action>() as ListActionError | undefined) ?? null;
  const location = useLocation();

  if (result.kind === "column" || result.kind === "choices") {
    // One column's next cards (the board's "More" with JavaScript) or the bulk form's choices, opened as a page.
    return (
      <Link to={viewHref(location.search, "board")} className={buttonVariants({ variant: "outline" })}>
        {t("views.board")}
      </Link>
    );
  }
  const { view, filters, query, filterChoices, everyone, table, board } = result;

  return (
    <ListToasts actionError={actionError}>
      <div className="grid min-w-0 gap-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.incidents")}</h1>
          <nav aria-label={t("views.label")} className="inline-flex rounded-md border p-1">
            {LIST_VIEWS.map((v) => (
              <Link
                key={v}
                to={viewHref(location.search, v)}
                aria-current={v === view ? "page" : undefined}
                preventScrollReset
                className={cn(buttonVariants({ variant: v === view ? "default" : "ghost", size: "sm" }))}
              >
                {t(`views.${v}`)}
              </Link>
            ))}
          </nav>
        </div>
        <IncidentFilters view={view} filters={filters} query={query} choices={filterChoices} />
        <StatusFormHost />
        {filters.statuses.length === 0 ? (
          // The dashboard counts archived incidents; this list leaves them out unless asked.
          <p className="text-sm text-muted-foreground">
            {t("archived.hidden")}{" "}
            <Link to={withArchived(location.search)} className="font-medium text-primary underline underline-offset-4">
              {t("archived.show")}
            </Link>
          </p>
        ) : null}
        {table ? (
          <div className="bulk-area grid min-w-0 gap-3">
            <BulkForm rows={table.items} everyone={everyone} error={actionError?.intent === "bulk" ? actionError : null} />
            <IncidentsTable page={table} query={query} filtered={hasFilters(filters)} />
          </div>
        ) : null}
        {board ? (
          <Suspense fallback={null}>
            <IncidentBoard
              key={location.search}
              columns={board.columns}
              cursors={board.cursors}
              statuses={filters.statuses}
            />
          </Suspense>
        ) : null}
      </div>
    </ListToasts>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
