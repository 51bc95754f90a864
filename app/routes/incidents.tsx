import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { IncidentFilters } from "~/components/incidents/list/incident-filters";
import { BulkForm, IncidentsTable } from "~/components/incidents/list/incidents-table";
import { ListToasts, type ListActionError } from "~/components/incidents/list/shared";
import { buttonVariants } from "~/components/ui/button";
import { incidentListAction, incidentListData, rememberFilters } from "~/http/incident-list.server";
import { serviceContext } from "~/http/route-context.server";
import { cn } from "~/lib/utils";
import { requireUser } from "~/modules/auth/guard.server";
import { hasFilters } from "~/modules/incidents/filters";
import { LIST_VIEWS, viewHref } from "~/modules/incidents/list-url";

/**
 * The board loads apart from the table (issue #9, JavaScript per page): the table, the default view,
 * does not download it. The server renders the document whole (entry.server.tsx waits for every part),
 * so without JavaScript nothing changes; in the browser the board's HTML stays as sent until its script
 * is there, then hydrates.
 */
const IncidentBoard = lazy(() => import("~/components/incidents/list/incident-board").then((m) => ({ default: m.IncidentBoard })));

/**
 * /incidents (issue #12 parts 1 and 2): the incidents in the viewer's reach as a table (`?view=table`,
 * the default) or a kanban board (`?view=board`), with the same filters, all in the URL. The last
 * filters are remembered in a cookie: /incidents without parameters opens them again. The action
 * changes the status, priority or assignee of one incident, or of the selected ones (`intent=bulk`).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const setCookie = await rememberFilters(request);
  const ctx = await serviceContext({ request, context }, user);
  const result = await incidentListData(ctx, new URL(request.url).searchParams);
  return data(result, { headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  return incidentListAction(ctx, request);
}

export default function Incidents() {
  const { t } = useTranslation("incidentList");
  const result = useLoaderData<typeof loader>();
  const actionError = (useActionData<typeof action>() as ListActionError | undefined) ?? null;
  const location = useLocation();

  if (result.kind === "column") {
    // One column's next cards (the board's "More" with JavaScript), opened as a page.
    return (
      <Link to={viewHref(location.search, "board")} className={buttonVariants({ variant: "outline" })}>
        {t("views.board")}
      </Link>
    );
  }
  const { view, filters, query, options, table, board } = result;
  const assignees = options.assignees.items;

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
        <IncidentFilters
          view={view}
          filters={filters}
          query={query}
          types={options.types}
          facilities={options.facilities}
          assignees={assignees}
          buildingPicker={options.buildingPicker}
        />
        {table ? (
          <div className="grid min-w-0 gap-3">
            <BulkForm pageIds={table.items.map((i) => i.id)} assignees={assignees} error={actionError?.intent === "bulk" ? actionError : null} />
            <IncidentsTable page={table} query={query} filtered={hasFilters(filters)} assignees={assignees} />
          </div>
        ) : null}
        {board ? (
          <Suspense fallback={null}>
            <IncidentBoard
              key={location.search}
              columns={board.columns}
              cursors={board.cursors}
              statuses={filters.statuses}
              assignees={assignees}
            />
          </Suspense>
        ) : null}
      </div>
    </ListToasts>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
