import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ActiveIncidentsTable } from "~/components/facilities/place-view";
import { FileThumb } from "~/components/forms/files-field";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { RoomDetail } from "~/modules/rooms/queries.server";
import { linkTypeLabelKey } from "./link-types";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

function Section({ title, children, className }: { title: ReactNode; children: ReactNode; className?: string }) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle as="h2">{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>;
}

/** The report identifier of the room: its QR code (an image made by the server) and the code as text. */
function ReportIdentifier({ room, qrCode, reportUrl }: { room: RoomDetail; qrCode: string | null; reportUrl: string | null }) {
  const { t } = useTranslation("rooms");
  return (
    <Section title={t("view.reportIdentifier")}>
      {room.reportIdentifier && qrCode ? (
        <figure className="grid justify-items-center gap-3 text-center">
          <img
            src={qrCode}
            alt={t("view.qrAlt", { name: room.name })}
            width={192}
            height={192}
            className="size-48 rounded-md border bg-white p-2"
          />
          <figcaption className="grid gap-1">
            <code className="break-all font-mono text-base font-semibold">{room.reportIdentifier}</code>
            {reportUrl ? <span className="break-all text-xs text-muted-foreground">{reportUrl}</span> : null}
            <span className="text-sm text-muted-foreground">{t("view.reportHint")}</span>
          </figcaption>
        </figure>
      ) : (
        <Empty>{t("view.noReportIdentifier")}</Empty>
      )}
    </Section>
  );
}

/**
 * The room view (/view-room/{id}, SPEC.md section 2): details, the report identifier with its QR
 * code, the equipment items (with what may be reported on each), links, files and images, the
 * incident types that may be reported in the room and the active incidents.
 */
export interface ReportableTypes {
  /** The incident types that may be reported in the room (listReportableIncidentTypes). */
  room: { id: number; name: string }[];
  /** Per generic equipment id, those that may be reported on its items; null when not looked up (many). */
  equipment: Record<string, { id: number; name: string }[]> | null;
}

export function RoomView({
  room,
  reportable,
  qrCode,
  reportUrl,
}: {
  room: RoomDetail;
  reportable: ReportableTypes;
  qrCode: string | null;
  reportUrl: string | null;
}) {
  const { t } = useTranslation("rooms");
  const details: [string, ReactNode][] = [
    [t("view.facility"), room.facilityName],
    [t("view.building"), room.buildingName],
    [t("view.floor"), room.floor],
    [t("view.roomType"), room.roomTypeName],
    [t("view.description"), room.description ? <span className="whitespace-pre-line">{room.description}</span> : t("view.none")],
  ];
  const images = room.files.filter((file) => file.isImage);
  const documents = room.files.filter((file) => !file.isImage);

  return (
    // Every column is minmax(0, 1fr): a wide table scrolls inside its own container instead of
    // widening the page (a grid's implicit column would grow to the table's width on a phone).
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Section title={t("view.details")}>
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_minmax(0,1fr)]">
            {details.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
                <dd className="text-sm">{value}</dd>
              </div>
            ))}
          </dl>
        </Section>
        <ReportIdentifier room={room} qrCode={qrCode} reportUrl={reportUrl} />
      </div>

      <Section title={t("view.equipment")}>
        {room.equipments.length === 0 ? (
          <Empty>{t("view.noEquipment")}</Empty>
        ) : (
          <Table className="min-w-[36rem]" wrapperClassName="border">
            <TableCaption className="sr-only">{t("view.equipmentCaption")}</TableCaption>
            <TableHeader className="bg-muted/50">
              <TableRow className="hover:bg-transparent">
                <TableHead>{t("room.genericEquipment")}</TableHead>
                <TableHead>{t("room.category")}</TableHead>
                <TableHead>{t("room.internalReference")}</TableHead>
                <TableHead>{t("room.reportIdentifier")}</TableHead>
                {reportable.equipment ? <TableHead>{t("view.equipmentIncidentTypes")}</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {room.equipments.map((item) => (
                <TableRow key={item.id}>
                  <TableCell className="font-medium">
                    <Link
                      to={`/view-equipment/${item.id}`}
                      className={linkClass}
                      aria-label={t("equipment:history.openLabel", { name: [item.equipmentName, item.internalReference].filter(Boolean).join(" ") })}
                    >
                      {item.equipmentName}
                    </Link>
                  </TableCell>
                  <TableCell>{item.categoryName}</TableCell>
                  <TableCell>{item.internalReference ?? "—"}</TableCell>
                  <TableCell>
                    <code className="font-mono text-xs">{item.reportIdentifier ?? "—"}</code>
                  </TableCell>
                  {reportable.equipment ? (
                    <TableCell className="text-sm">
                      {reportable.equipment[item.equipmentTypeId]?.length ? (
                        reportable.equipment[item.equipmentTypeId].map((type) => type.name).join(", ")
                      ) : (
                        <span className="text-muted-foreground">{t("view.none")}</span>
                      )}
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
        <Section title={t("view.links")}>
          {room.links.length === 0 ? (
            <Empty>{t("view.noLinks")}</Empty>
          ) : (
            <ul className="grid gap-2">
              {room.links.map((link, index) => (
                <li key={`${index}-${link.url}`} className="grid gap-0.5 sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-3">
                  <span className="text-sm font-medium text-muted-foreground">{t(linkTypeLabelKey(link.type))}</span>
                  <a href={link.url} target="_blank" rel="noreferrer noopener" className={`break-all text-sm ${linkClass}`}>
                    {link.url}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title={t("view.incidentTypes")}>
          <p className="mb-3 text-sm text-muted-foreground">{t("view.incidentTypesHint")}</p>
          {reportable.room.length === 0 ? (
            <Empty>{t("view.noIncidentTypes")}</Empty>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label={t("view.incidentTypes")}>
              {reportable.room.map((type) => (
                <li key={type.id}>
                  <Badge variant="secondary">{type.name}</Badge>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <Section title={t("view.files")}>
        {room.files.length === 0 ? (
          <Empty>{t("view.noFiles")}</Empty>
        ) : (
          <div className="grid gap-4">
            {images.length ? (
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
                {images.map((file) => (
                  <li key={file.id}>
                    <a href={file.url} target="_blank" rel="noreferrer" className="grid gap-1 text-sm">
                      <img src={file.url} alt={file.name} loading="lazy" className="aspect-square w-full rounded-md border object-cover" />
                      <span className="truncate text-primary underline-offset-4 hover:underline">{file.name}</span>
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
            {documents.length ? (
              <ul className="grid gap-2">
                {documents.map((file) => (
                  <li key={file.id} className="flex items-center gap-3">
                    <FileThumb file={file} className="size-10" />
                    <a href={file.url} target="_blank" rel="noreferrer" className={`truncate text-sm ${linkClass}`}>
                      {file.name}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        )}
      </Section>

      <Section title={t("view.activeIncidents")}>
        {room.activeIncidentList.length === 0 ? (
          <Empty>{t("view.noActiveIncidents")}</Empty>
        ) : (
          <ActiveIncidentsTable
            incidents={room.activeIncidentList}
            caption={t("view.incidentsCaption")}
            className="min-w-[36rem]"
            headers={{ shortId: t("columns.shortId"), title: t("view.title"), status: t("view.status"), priority: t("view.priority"), created: t("view.created") }}
          />
        )}
      </Section>
    </div>
  );
}
