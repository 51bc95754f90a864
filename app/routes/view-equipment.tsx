import { Link, useLoaderData } from "@remix-run/react";
import { ItemRecordForm, ItemRecordView, RECORD_INTENT } from "~/components/equipment/item-record";
import { useTranslation } from "react-i18next";
import { EquipmentItemDetails, FailuresChart, HistoryIncidents, HistoryTasks, ReliabilitySummary } from "~/components/equipment/equipment-history";
import { BackLink } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { Card, CardContent } from "~/components/ui/card";
import type { TitledHandle } from "~/components/shell/document-title";
import { can } from "~/core/actor";
import { uploadsOf } from "~/http/form-action.server";
import { formIntent, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { parseListQuery } from "~/lib/list-query";
import { failuresPerMonth, getEquipmentItemSummary, getReliability, listEquipmentItemIncidents, listEquipmentItemTasks } from "~/modules/reliability/queries.server";
import { getEquipmentItemRecord, listParentChoices } from "~/modules/equipment/item-queries.server";
import { updateEquipmentItem } from "~/modules/equipment/items.server";
import { EquipmentItemRecordSchema } from "~/modules/equipment/schema";

/**
 * /view-equipment/{id}, an equipment item's screen, for every signed-in user who reaches its room
 * (others: not found): its record (issue 63: serial number, maker, model, dates, supplier, notes, parent,
 * children, documents and photos), its reliability (issue 62: failures, median and mean time to repair,
 * mean time between failures, over its whole history), its failures per month over the last twelve
 * months (drawn in HTML), its incidents a page at a time, newest first, and its latest maintenance tasks.
 * Those who manage places get the record's form (`intent=record`, multipart, works without JavaScript).
 */
const viewedItem = subjectById(getEquipmentItemSummary, "equipment:errors.equipmentItemNotFound");

/** "Boiler EQ-001 · Equipment history · Caretaker". */
export const handle: TitledHandle = {
  documentTitle: (data: { item?: { equipmentName: string; internalReference: string | null } }) =>
    data.item ? [data.item.equipmentName, data.item.internalReference].filter(Boolean).join(" ") : null,
};

export const loader = screenLoader(viewedItem, async ({ ctx, url, subject: item }) => {
  const query = parseListQuery(url.searchParams, { sorts: ["createdAt"] as const, defaultSort: "createdAt", defaultDir: "desc" });
  const canEdit = can(ctx.actor, "manage", "place");
  const [record, parentChoices, figures, months, incidents, tasks] = await Promise.all([
    getEquipmentItemRecord(ctx, item.id),
    canEdit ? listParentChoices(ctx, item.id) : [],
    getReliability(ctx, { equipmentItemId: item.id }),
    failuresPerMonth(ctx, { equipmentItemId: item.id }),
    listEquipmentItemIncidents(ctx, item.id, query),
    can(ctx.actor, "read", "task") ? listEquipmentItemTasks(ctx, item.id) : [],
  ]);
  return { item, record, parentChoices, canEdit, maxBytes: ctx.files.maxBytes, figures, months, incidents, tasks };
});

export const action = screenAction({
  subject: viewedItem,
  files: true,
  intents: {
    [RECORD_INTENT]: formIntent(
      { schema: EquipmentItemRecordSchema, redirectTo: ({ subject }) => `/view-equipment/${subject.id}`, toast: "equipment:item.saved" },
      async (value, { ctx, subject, formData }) => updateEquipmentItem(ctx, subject.id, { ...value, newFiles: await uploadsOf(formData, "newFiles") }),
    ),
  },
});

export default function ViewEquipment() {
  const { t } = useTranslation("equipment");
  const { item, record, parentChoices, canEdit, maxBytes, figures, months, incidents, tasks } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <div className="grid gap-1">
        <BackLink to={`/view-room/${item.roomId}`}>{t("history.back", { room: item.roomName })}</BackLink>
        <h1 className="text-2xl font-semibold tracking-tight">
          {item.equipmentName}
          {item.internalReference ? <span className="text-muted-foreground"> · {item.internalReference}</span> : null}
        </h1>
        <p className="text-sm text-muted-foreground">
          {t("history.subtitle")} ·{" "}
          <Link to={`/view-room/${item.roomId}`} className="font-medium text-primary underline-offset-4 hover:underline">
            {item.roomName}
          </Link>
        </p>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
        <ReliabilitySummary figures={figures} />
        <EquipmentItemDetails item={item} />
      </div>
      <ItemRecordView record={record} />
      {canEdit ? (
        <Card>
          <CardContent className="pt-6">
            <ItemRecordForm record={record} parentChoices={parentChoices} maxBytes={maxBytes} lastResult={resultFor(RECORD_INTENT)} />
          </CardContent>
        </Card>
      ) : null}
      <FailuresChart months={months} />
      <HistoryIncidents page={incidents} />
      <HistoryTasks tasks={tasks} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
