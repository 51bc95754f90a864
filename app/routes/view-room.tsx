import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { TitledHandle } from "~/components/shell/document-title";
import { BackLink } from "~/components/forms/form-parts";
import QRCode from "qrcode";
import { publicOrigin } from "~/http/public-url.server";
import { useTranslation } from "react-i18next";
import { StaffReportDialog, STAFF_REPORT_DIALOG, STAFF_REPORT_INTENT, StaffReportTrigger } from "~/components/report/staff-report-dialog";
import { RoomView } from "~/components/rooms/room-view";
import { buttonVariants } from "~/components/ui/button";
import { screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { type StaffReportActionData, staffReportIntent, staffReportTypes } from "~/http/staff-report.server";
import { can } from "~/core/actor";
import { listReportableIncidentTypes } from "~/modules/incident-types/queries.server";
import { viewRoom } from "~/modules/rooms/queries.server";

/** Up to this many generic equipments, the room view also lists what may be reported on each (one query each). */
const EQUIPMENT_TYPES_LOOKED_UP = 10;

/**
 * /view-room/{id}, for every signed-in user (SPEC.md sections 2 and 6): managers and administrators
 * see every room of their entity, technicians only those of their linked facilities and buildings
 * (others go to the forbidden page). The QR code encodes the room's report address, drawn here on
 * the server as an SVG image. "Report an incident" (`?dialog=report-incident`) reports as the signed-in user
 * with the room's report identifier, through the occupiers' verb.
 */
const viewedRoom = subjectById(viewRoom);

/** "Room 2.14 · Room · Caretaker". */
export const handle: TitledHandle = {
  documentTitle: (data: { room?: { name: string } }) => data.room?.name,
};

export const loader = screenLoader(viewedRoom, async ({ request, context, ctx, url, subject: room }) => {
  const id = room.id;
  const reportUrl = room.reportIdentifier ? `${publicOrigin({ request, context })}/report/${room.reportIdentifier}` : null;
  const qrCode = reportUrl
    ? `data:image/svg+xml;base64,${Buffer.from(
        await QRCode.toString(reportUrl, { type: "svg", errorCorrectionLevel: "M", margin: 1, color: { dark: "#000000", light: "#ffffff" } }),
      ).toString("base64")}`
    : null;
  // What may be reported here (one query); and on the equipment: items of one generic equipment share
  // the answer, so one query per generic equipment, when there are few.
  const firstItems = [...new Map(room.equipments.map((item) => [item.equipmentTypeId, item.id])).entries()];
  const [incidentTypes, perEquipment] = await Promise.all([
    listReportableIncidentTypes(ctx, { roomId: id }),
    firstItems.length <= EQUIPMENT_TYPES_LOOKED_UP
      ? Promise.all(
          firstItems.map(async ([equipmentTypeId, itemId]) => {
            const types = await listReportableIncidentTypes(ctx, { equipmentItemId: itemId });
            return [equipmentTypeId, types.map(({ id: typeId, name }) => ({ id: typeId, name }))] as const;
          }),
        )
      : null,
  ]);
  const reportable = { room: incidentTypes.map(({ id: typeId, name }) => ({ id: typeId, name })), equipment: perEquipment ? Object.fromEntries(perEquipment) : null };
  // The report dialog's types and checklists, when it is open.
  const reporting = url.searchParams.get("dialog") === STAFF_REPORT_DIALOG ? await staffReportTypes(context, room.reportIdentifier, ctx.locale) : null;
  const typeParam = url.searchParams.get("type");
  const report = reporting
    ? { types: reporting, typeId: typeParam && reporting.some((t) => String(t.id) === typeParam) ? Number(typeParam) : null }
    : null;
  return { room, reportable, reportUrl, qrCode, canManage: can(ctx.actor, "manage", "place"), report };
});

/** `intent=report`: the report dialog's post (the only form of the room view). */
export const action = screenAction({ subject: viewedRoom, files: true, intents: { [STAFF_REPORT_INTENT]: staffReportIntent } });

export default function ViewRoom() {
  const { t } = useTranslation("rooms");
  const { room, reportable, reportUrl, qrCode, canManage, report } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as StaffReportActionData | undefined;
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          {canManage ? (
            <BackLink to="/facilities?tab=rooms">{t("view.back")}</BackLink>
          ) : null}
          <h1 className="text-2xl font-semibold tracking-tight">{room.name}</h1>
          <p className="text-sm text-muted-foreground">{t("room.shortId", { shortId: room.shortId })}</p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          {room.reportIdentifier ? <StaffReportTrigger /> : null}
          {canManage ? (
            <Link to={`/update-room/${room.id}`} className={`${buttonVariants()} w-full sm:w-auto`}>
              {t("view.edit")}
            </Link>
          ) : null}
        </div>
      </div>
      <StaffReportDialog roomName={room.name} types={report?.types ?? null} typeId={report?.typeId ?? null} failure={result?.intent === STAFF_REPORT_INTENT ? result.failure : null} />
      <RoomView room={room} reportable={reportable} qrCode={qrCode} reportUrl={reportUrl} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
