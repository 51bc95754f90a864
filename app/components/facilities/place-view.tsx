import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useDates } from "~/lib/use-dates";
import type { ActiveIncidentView, PlaceIncidentView } from "~/modules/facilities/queries.server";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** A titled card of a view. */
export function ViewSection({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle as="h2">{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export function ViewEmpty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>;
}

/** The head of a facility or building view: back link (for those who manage places), name, ID and the way to edit. */
export function PlaceViewHeader({ name, shortId, back, editTo }: { name: string; shortId: number; back: { to: string; label: string } | null; editTo: string | null }) {
  const { t } = useTranslation("facilities");
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid gap-1">
        {back ? <BackLink to={back.to}>{back.label}</BackLink> : null}
        <h1 className="text-2xl font-semibold tracking-tight">{name}</h1>
        <p className="text-sm text-muted-foreground">{t("facility.shortId", { shortId })}</p>
      </div>
      {editTo ? (
        <Link to={editTo} className={`${buttonVariants()} w-full sm:w-auto`}>
          {t("view.edit")}
        </Link>
      ) : null}
    </div>
  );
}

/** Name and value pairs of a view's details. */
export function ViewDetails({ items }: { items: [label: string, value: ReactNode][] }) {
  const { t } = useTranslation("facilities");
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="grid gap-0.5">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="break-words">{value === null || value === "" ? t("view.none") : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A column of a view's table: its header, its classes and what a row shows in it. */
export interface ViewColumn<T> {
  header: ReactNode;
  headClassName?: string;
  cellClassName?: string;
  cell: (row: T) => ReactNode;
}

/** A record's short ID, as a view's tables show it. */
export function shortIdColumn<T extends { shortId: number }>(header: string): ViewColumn<T> {
  return { header, headClassName: "w-20", cellClassName: "tabular-nums", cell: (row) => row.shortId };
}

/** A count, right-aligned. */
export function countColumn<T>(header: string, count: (row: T) => number): ViewColumn<T> {
  return { header, headClassName: "text-right", cellClassName: "text-right tabular-nums", cell: count };
}

/** A link to a record (its view or its page). */
export function linkColumn<T>(header: string, to: (row: T) => string, text: (row: T) => ReactNode): ViewColumn<T> {
  return {
    header,
    cell: (row) => (
      <Link to={to(row)} className={linkClass}>
        {text(row)}
      </Link>
    ),
  };
}

/** A view's table of records: every row given (a view lists a bounded number), no sorting, no paging. */
export function ViewTable<T extends { id: number }>({ caption, className, columns, rows }: { caption: string; className: string; columns: ViewColumn<T>[]; rows: T[] }) {
  return (
    <Table className={className} wrapperClassName="border">
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader className="bg-muted/50">
        <TableRow className="hover:bg-transparent">
          {columns.map((column, index) => (
            <TableHead key={index} className={column.headClassName}>
              {column.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id}>
            {columns.map((column, index) => (
              <TableCell key={index} className={column.cellClassName}>
                {column.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The headers of an active incidents table; `room` adds the room of each (a facility's or building's list). */
export interface IncidentHeaders {
  shortId: string;
  title: string;
  room?: string;
  status: string;
  priority: string;
  created: string;
}

/** The active incidents of a room, or of a facility or building with the room of each. */
export function ActiveIncidentsTable({
  incidents,
  caption,
  className,
  headers,
}: {
  incidents: (ActiveIncidentView & Partial<Pick<PlaceIncidentView, "roomId" | "roomName">>)[];
  caption: string;
  className: string;
  headers: IncidentHeaders;
}) {
  const { t } = useTranslation("rooms");
  const dates = useDates();
  type Row = (typeof incidents)[number];
  const columns: ViewColumn<Row>[] = [
    shortIdColumn(headers.shortId),
    linkColumn(headers.title, (incident) => `/incident/${incident.id}`, (incident) => incident.title),
    ...(headers.room ? [linkColumn<Row>(headers.room, (incident) => `/view-room/${incident.roomId}`, (incident) => incident.roomName)] : []),
    { header: headers.status, cell: (incident) => t(`incidentStatus.${incident.status}`) },
    { header: headers.priority, cell: (incident) => (incident.priority === null ? t("priority.none") : t(`priority.${incident.priority}`)) },
    {
      header: headers.created,
      cellClassName: "whitespace-nowrap",
      cell: (incident) => <time dateTime={incident.createdAt}>{dates.dateTime(incident.createdAt)}</time>,
    },
  ];
  return <ViewTable caption={caption} className={className} columns={columns} rows={incidents} />;
}

/** The active incidents of a facility or building, with the room of each. */
export function PlaceIncidents({ incidents, caption, empty }: { incidents: PlaceIncidentView[]; caption: string; empty: string }) {
  const { t } = useTranslation("facilities");
  const headers = { shortId: t("columns.shortId"), title: t("view.incidentTitle"), room: t("view.room"), status: t("view.status"), priority: t("view.priority"), created: t("view.created") };
  return (
    <ViewSection title={t("view.activeIncidents")}>
      {incidents.length === 0 ? <ViewEmpty>{empty}</ViewEmpty> : <ActiveIncidentsTable incidents={incidents} caption={caption} className="min-w-[40rem]" headers={headers} />}
    </ViewSection>
  );
}

export { linkClass as placeLinkClass };
