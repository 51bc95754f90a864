import { useTranslation } from "react-i18next";
import { CheckboxField } from "~/components/forms/form-parts";
import { useChosenCount } from "~/components/forms/use-chosen-count";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { QrPrintStatus } from "~/db/enums";

/** The tree as the page receives it (JSON). */
export interface PrintTreeView {
  facilities: {
    id: number;
    name: string;
    printed: number;
    total: number;
    status: number;
    buildings: { id: number; name: string; printed: number; total: number; status: number }[];
  }[];
  open: {
    id: number;
    name: string;
    facilityName: string;
    rooms: {
      id: number;
      name: string;
      floor: string;
      /** The room as a place: its own sticker and its equipment items' (`printed` of `total`). */
      status: number;
      printed: number;
      total: number;
      lastPrinted: string | null;
      items: { id: number; name: string; internalReference: string | null; status: number; lastPrinted: string | null }[];
    }[];
  } | null;
}

export interface ChosenView {
  facilityIds: number[];
  buildingIds: number[];
  roomIds: number[];
  equipmentItemIds: number[];
}

/** The checkboxes whose ticks count as chosen places. */
const CHOSEN_NAMES = ["facilityIds", "buildingIds", "roomIds", "equipmentItemIds"] as const;

/** A print status as a badge. */
export function PrintStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("printing");
  const variant = status === QrPrintStatus.PRINTED ? "success" : status === QrPrintStatus.PARTIALLY_PRINTED ? "warning" : "outline";
  return (
    <Badge variant={variant} data-print-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/**
 * The location tree to choose what to print (facility > building > room > equipment item), with each
 * place's print status, inside the page's GET form: "Rooms of ..." opens a building (a submit button, so
 * the choices made so far travel in the address), the filter keeps only what is not printed yet. A room
 * counts its own sticker and its equipment items', and choosing it prints them all (the missing ones
 * with the filter). Rooms
 * and items chosen in another building stay chosen as hidden fields. Works without JavaScript.
 */
export function PrintTree({ tree, chosen, notPrintedOnly }: { tree: PrintTreeView; chosen: ChosenView; notPrintedOnly: boolean }) {
  const { t } = useTranslation("printing");
  const shownRooms = new Set(tree.open?.rooms.map((r) => r.id) ?? []);
  const shownItems = new Set(tree.open?.rooms.flatMap((r) => r.items.map((i) => i.id)) ?? []);
  // The server's count of the chosen places, then (with JavaScript) following the ticks.
  const { count, onChange } = useChosenCount(
    chosen.facilityIds.length + chosen.buildingIds.length + chosen.roomIds.length + chosen.equipmentItemIds.length,
    chosen,
    CHOSEN_NAMES,
  );
  return (
    <fieldset className="grid min-w-0 gap-3" onChange={onChange}>
      <legend className="mb-1 text-base font-semibold">{t("tree.legend")}</legend>
      <p className="text-sm text-muted-foreground">{t("tree.hint")}</p>
      <div className="flex flex-wrap items-center gap-3">
        <CheckboxField id="print-not-printed" name="notPrintedOnly" value="on" defaultChecked={notPrintedOnly} label={t("tree.notPrintedOnly")} />
        <Button type="submit" variant="outline" size="sm" name="open" value={tree.open ? String(tree.open.id) : ""}>
          {t("tree.apply")}
        </Button>
      </div>
      <p className="text-sm" aria-live="polite">
        {count ? t("tree.chosen", { count }) : t("tree.nothingChosen")}
      </p>
      {chosen.roomIds
        .filter((id) => !shownRooms.has(id))
        .map((id) => (
          <input key={`r${id}`} type="hidden" name="roomIds" value={id} />
        ))}
      {chosen.equipmentItemIds
        .filter((id) => !shownItems.has(id))
        .map((id) => (
          <input key={`i${id}`} type="hidden" name="equipmentItemIds" value={id} />
        ))}

      {tree.open ? (
        <section className="grid gap-3 rounded-md border p-3" aria-labelledby="print-open-rooms">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="print-open-rooms" className="text-sm font-semibold">
              {t("tree.roomsOf", { building: tree.open.name, facility: tree.open.facilityName })}
            </h3>
            <Button type="submit" variant="ghost" size="sm" name="open" value="">
              {t("tree.close")}
            </Button>
          </div>
          {tree.open.rooms.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("tree.noRooms")}</p>
          ) : (
            <ul className="grid gap-3">
              {tree.open.rooms.map((room) => (
                <li key={room.id} className="grid gap-2">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <CheckboxField
                      id={`print-room-${room.id}`}
                      name="roomIds"
                      value={String(room.id)}
                      defaultChecked={chosen.roomIds.includes(room.id)}
                      label={`${room.name} · ${t("tree.floor", { floor: room.floor })}`}
                      className="min-w-0"
                    />
                    <PrintStatusBadge status={room.status} />
                    <span className="text-xs text-muted-foreground" data-testid={`room-counts-${room.id}`} data-printed={room.printed} data-total={room.total}>
                      {t("tree.counts", { printed: room.printed, total: room.total })}
                    </span>
                    {room.lastPrinted ? <span className="text-xs text-muted-foreground">{t("tree.lastPrinted", { date: room.lastPrinted })}</span> : null}
                  </div>
                  {room.items.length ? (
                    <ul className="grid gap-2 pl-7" aria-label={t("tree.items", { room: room.name })}>
                      {room.items.map((item) => (
                        <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                          <CheckboxField
                            id={`print-item-${item.id}`}
                            name="equipmentItemIds"
                            value={String(item.id)}
                            defaultChecked={chosen.equipmentItemIds.includes(item.id)}
                            label={item.internalReference ? `${item.name} (${item.internalReference})` : item.name}
                            className="min-w-0"
                          />
                          <PrintStatusBadge status={item.status} />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      {tree.facilities.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("tree.empty")}</p>
      ) : (
        <div className="grid gap-2">
          {tree.facilities.map((facility) => (
            <details
              key={facility.id}
              open={tree.facilities.length === 1 || chosen.facilityIds.includes(facility.id) || facility.buildings.some((b) => chosen.buildingIds.includes(b.id) || b.id === tree.open?.id)}
              className="rounded-md border px-3 py-2"
            >
              <summary className="cursor-pointer py-1 text-sm font-medium">
                {facility.name} <PrintStatusBadge status={facility.status} />{" "}
                <span className="font-normal text-muted-foreground">{t("tree.counts", { printed: facility.printed, total: facility.total })}</span>
              </summary>
              <div className="grid gap-2 py-2">
                <CheckboxField
                  id={`print-facility-${facility.id}`}
                  name="facilityIds"
                  value={String(facility.id)}
                  defaultChecked={chosen.facilityIds.includes(facility.id)}
                  label={t("tree.wholeFacility", { name: facility.name })}
                />
                <ul className="grid gap-2 border-l pl-3">
                  {facility.buildings.map((building) => (
                    <li key={building.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <CheckboxField
                        id={`print-building-${building.id}`}
                        name="buildingIds"
                        value={String(building.id)}
                        defaultChecked={chosen.buildingIds.includes(building.id)}
                        label={building.name}
                        className="min-w-0"
                      />
                      <span data-testid={`building-status-${building.id}`}>
                        <PrintStatusBadge status={building.status} />
                      </span>
                      <span className="text-xs text-muted-foreground">{t("tree.counts", { printed: building.printed, total: building.total })}</span>
                      <Button type="submit" variant="link" size="sm" name="open" value={String(building.id)} className="ml-auto">
                        {t("tree.openRooms", { name: building.name })}
                      </Button>
                    </li>
                  ))}
                </ul>
              </div>
            </details>
          ))}
        </div>
      )}
    </fieldset>
  );
}
