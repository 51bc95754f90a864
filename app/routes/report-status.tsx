import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Details, Panel, ReportNotFound, ReportShell } from "~/components/report/report-page";
import { isDomainError } from "~/lib/errors";
import { getReportStatus, type ReportStatus } from "~/modules/occupier-reports/status.server";
import type { ScriptsHandle } from "~/root";
import { useDates, TimeZoneProvider } from "~/lib/use-dates";

/**
 * /report/status/{token}: the page a reporter's mails link to, public, no script. What
 * they reported, where, its status and public history (created, status changes, reported again),
 * never staff names, comments or emails. An unknown token is a friendly 404. Opening it counts in the
 * server's strict token tier (server/paths.ts).
 */
export const handle: ScriptsHandle = { scripts: false };

/** The document gets the loader's and action's headers (no shared caching, Retry-After). */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, key) => merged.set(key, value));
  return merged;
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  try {
    const status = await getReportStatus(context.runtime.database.db, params.token ?? "");
    return data({ status }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return data({ status: null as ReportStatus | null }, { status: 404 });
    throw error;
  }
}

const EVENT_CREATED = 0;
const EVENT_STATUS = 2;
const CLOSED = new Set([2, 3]);

export default function ReportStatusPage() {
  const { status } = useLoaderData<typeof loader>();
  const { t } = useTranslation("report");
  if (!status) return <ReportNotFound title={t("status.notFoundTitle")} text={t("status.notFound")} />;
  // A visitor has no entity of their own: the dates are in the zone of the entity the report went to.
  return (
    <TimeZoneProvider value={status.entity.timeZone}>
      <ReportStatusView status={status} />
    </TimeZoneProvider>
  );
}

function ReportStatusView({ status }: { status: ReportStatus }) {
  const { t } = useTranslation("report");
  const when = useDates().dateTime;
  const where = [status.place.room, status.place.floor ? t("status.floor", { floor: status.place.floor }) : null, status.place.building, status.place.facility]
    .filter(Boolean)
    .join(" · ");
  const rows: [string, string][] = [
    [t("status.type"), status.title],
    [t("status.where"), where],
    [t("status.created"), when(status.createdAt)],
    [t("status.lastOccurrence"), when(status.lastOccurrenceAt)],
  ];
  return (
    <ReportShell branding={{ ...status.entity, logoUrl: null }}>
      <Panel>
        <div className="grid gap-2">
          <h1 className="text-xl font-semibold">{t("status.title", { shortId: status.shortId })}</h1>
          <p className="text-sm">
            {t("status.status")}{" "}
            <strong className={CLOSED.has(status.status) ? "text-success-text" : undefined}>{t(`incidents:status.${status.status}`)}</strong>
          </p>
        </div>
        <Details rows={rows} />
      </Panel>
      <Panel title={t("status.history")} titleId="report-history">
        <ol className="grid gap-3 border-l-2 pl-4">
          {status.history.map((event, index) => (
            <li key={index} className="grid gap-0.5">
              <span className="text-sm font-medium">
                {event.type === EVENT_CREATED
                  ? t("status.events.created")
                  : event.type === EVENT_STATUS && event.status !== undefined
                    ? t("status.events.status", { status: t(`incidents:status.${event.status}`) })
                    : t("status.events.reportedAgain")}
              </span>
              <time dateTime={event.at} className="text-xs text-muted-foreground">
                {when(event.at)}
              </time>
            </li>
          ))}
        </ol>
      </Panel>
    </ReportShell>
  );
}
