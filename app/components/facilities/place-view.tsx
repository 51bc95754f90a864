import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useDates } from "~/lib/use-dates";
import type { PlaceIncidentView } from "~/modules/facilities/queries.server";

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

/** The active incidents of a facility or building, with the room of each. */
export function PlaceIncidents({ incidents, caption, empty }: { incidents: PlaceIncidentView[]; caption: string; empty: string }) {
  const { t } = useTranslation("facilities");
  const { t: tRooms } = useTranslation("rooms");
  const dates = useDates();
  return (
    <ViewSection title={t("view.activeIncidents")}>
      {incidents.length === 0 ? (
        <ViewEmpty>{empty}</ViewEmpty>
      ) : (
        <Table className="min-w-[40rem]" wrapperClassName="border">
          <TableCaption className="sr-only">{caption}</TableCaption>
          <TableHeader className="bg-muted/50">
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-20">{t("columns.shortId")}</TableHead>
              <TableHead>{t("view.incidentTitle")}</TableHead>
              <TableHead>{t("view.room")}</TableHead>
              <TableHead>{t("view.status")}</TableHead>
              <TableHead>{t("view.priority")}</TableHead>
              <TableHead>{t("view.created")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {incidents.map((incident) => (
              <TableRow key={incident.id}>
                <TableCell className="tabular-nums">{incident.shortId}</TableCell>
                <TableCell>
                  <Link to={`/incident/${incident.id}`} className={linkClass}>
                    {incident.title}
                  </Link>
                </TableCell>
                <TableCell>
                  <Link to={`/view-room/${incident.roomId}`} className={linkClass}>
                    {incident.roomName}
                  </Link>
                </TableCell>
                <TableCell>{tRooms(`incidentStatus.${incident.status}`)}</TableCell>
                <TableCell>{incident.priority === null ? tRooms("priority.none") : tRooms(`priority.${incident.priority}`)}</TableCell>
                <TableCell className="whitespace-nowrap">
                  <time dateTime={incident.createdAt}>{dates.dateTime(incident.createdAt)}</time>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </ViewSection>
  );
}

export { linkClass as placeLinkClass };
