import { useTranslation } from "react-i18next";
import { CheckboxField } from "~/components/forms/form-parts";
import { SearchField } from "~/components/forms/search-field";
import { useChosenCount } from "~/components/forms/use-chosen-count";
import { ErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { LOCATION_FIELDS } from "~/lib/maintenance-form";
import type { LocationTree } from "~/modules/maintenance/location-tree.server";

/** The picker's data as the page receives it (JSON). */
export type LocationTreeView = LocationTree;

/** The ids checked at first, as the form holds them (strings). */
export interface CheckedLocations {
  facilityIds: string[];
  buildingIds: string[];
  roomIds: string[];
  equipmentItemIds: string[];
}

/** The checkboxes whose ticks count as chosen places. */
const CHOSEN_NAMES = ["facilityIds", "buildingIds", "roomIds", "equipmentItemIds"] as const;

const browse = (value: string) => ({ type: "submit" as const, name: LOCATION_FIELDS.browse, value, formNoValidate: true });

/**
 * The location tree picker (facility > building > room > equipment item), limited to the editor's
 * reach and rendered by the server: facilities as nested `<details>` listing their buildings (a whole
 * facility or building may be chosen when `allowWhole`), and one page of rooms with their equipment
 * items, either of the building whose "Rooms" was pressed or matching the search. Its buttons post the
 * form (`locBrowse`), which the server answers again with the input kept, so it works without
 * JavaScript and never renders thousands of checkboxes. What is chosen elsewhere stays listed, checked.
 */
export function LocationPicker({
  tree,
  checked,
  allowWhole,
  legend,
  hint,
  errors,
  errorId,
  idPrefix,
}: {
  tree: LocationTreeView;
  checked: CheckedLocations;
  /** Whole facilities and buildings may be chosen (a plan), or only rooms and equipment items (a type's defaults). */
  allowWhole: boolean;
  legend: string;
  hint?: string;
  errors?: string[] | null;
  errorId?: string;
  idPrefix: string;
}) {
  const { t } = useTranslation("maintenance");
  const is = (list: string[], id: number) => list.includes(String(id));
  const shownRooms = new Set(tree.rooms?.items.map((r) => r.id) ?? []);
  const shownItems = new Set(tree.rooms?.items.flatMap((r) => r.items.map((i) => i.id)) ?? []);
  const inTree = new Set(tree.facilities.map((f) => f.id));
  const buildingsInTree = new Set(tree.facilities.flatMap((f) => f.buildings.map((b) => b.id)));
  const elsewhere = {
    facilities: allowWhole ? tree.chosen.facilities.filter((f) => !inTree.has(f.id) || !tree.facilities.find((x) => x.id === f.id)?.whole) : [],
    buildings: allowWhole ? tree.chosen.buildings.filter((b) => !buildingsInTree.has(b.id)) : [],
    rooms: tree.chosen.rooms.filter((r) => !shownRooms.has(r.id)),
    items: tree.chosen.equipmentItems.filter((i) => !shownItems.has(i.id)),
  };
  // The server's count of what it was posted, then (with JavaScript) following the ticks.
  const { count: chosenCount, onChange } = useChosenCount(
    tree.chosen.facilities.length + tree.chosen.buildings.length + tree.chosen.rooms.length + tree.chosen.equipmentItems.length,
    tree,
    CHOSEN_NAMES,
  );
  const described = errors?.length ? errorId : undefined;
  const searchId = `${idPrefix}-search`;
  const itemLabel = (item: { name: string; internalReference: string | null }) =>
    item.internalReference ? t("picker.itemWithReference", { name: item.name, reference: item.internalReference }) : item.name;

  return (
    <fieldset className="grid min-w-0 gap-4" onChange={onChange} aria-describedby={[hint ? `${idPrefix}-hint` : null, described].filter(Boolean).join(" ") || undefined}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {hint ? (
        <p id={`${idPrefix}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <p className="text-sm" aria-live="polite">
        {chosenCount ? t("picker.chosen", { count: chosenCount }) : t("picker.nothingChosen")}
      </p>
      {tree.open ? <input type="hidden" name={LOCATION_FIELDS.open} value={tree.open.id} /> : null}
      {tree.rooms ? <input type="hidden" name={LOCATION_FIELDS.page} value={tree.rooms.page} /> : null}

      <SearchField
        id={searchId}
        label={t("picker.search")}
        name={LOCATION_FIELDS.search}
        defaultValue={tree.q}
        find={{ label: t("picker.find"), enterFinds: true, ...browse("find") }}
      />

      {tree.rooms ? (
        <section className="grid gap-3 rounded-md border p-3" aria-labelledby={`${idPrefix}-rooms`}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id={`${idPrefix}-rooms`} className="text-sm font-semibold">
              {tree.open ? t("picker.roomsOf", { building: tree.open.name, facility: tree.open.facilityName }) : t("picker.roomsMatching", { q: tree.q })}
            </h3>
            <Button {...browse("close")} variant="ghost" size="sm">
              {t("picker.close")}
            </Button>
          </div>
          {tree.rooms.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">{tree.open ? t("picker.noRooms") : t("picker.noMatch", { q: tree.q })}</p>
          ) : (
            <ul className="grid gap-3">
              {tree.rooms.items.map((room) => (
                <li key={room.id} className="grid gap-2">
                  <CheckboxField
                    id={`${idPrefix}-room-${room.id}`}
                    name="roomIds"
                    value={String(room.id)}
                    defaultChecked={is(checked.roomIds, room.id)}
                    aria-describedby={described}
                    label={tree.open ? room.name : t("picker.roomOption", { room: room.name, building: room.buildingName, facility: room.facilityName })}
                  />
                  {room.items.length ? (
                    <ul className="grid gap-2 pl-7" aria-label={t("picker.itemsOf", { room: room.name })}>
                      {room.items.map((item) => (
                        <li key={item.id}>
                          <CheckboxField
                            id={`${idPrefix}-item-${item.id}`}
                            name="equipmentItemIds"
                            value={String(item.id)}
                            defaultChecked={is(checked.equipmentItemIds, item.id)}
                            label={itemLabel(item)}
                          />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {tree.rooms.pages > 1 ? (
            <div className="flex flex-wrap items-center gap-2">
              <p className="mr-auto text-sm text-muted-foreground">{t("picker.page", { page: tree.rooms.page, pages: tree.rooms.pages, count: tree.rooms.total })}</p>
              {tree.rooms.page > 1 ? (
                <Button {...browse(`page:${tree.rooms.page - 1}`)} variant="ghost" size="sm">
                  {t("picker.previous")}
                </Button>
              ) : null}
              {tree.rooms.page < tree.rooms.pages ? (
                <Button {...browse(`page:${tree.rooms.page + 1}`)} variant="ghost" size="sm">
                  {t("picker.next")}
                </Button>
              ) : null}
            </div>
          ) : null}
        </section>
      ) : null}

      {tree.facilities.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("picker.empty")}</p>
      ) : (
        <div className="grid gap-2">
          {tree.facilities.map((facility) => {
            const holdsChoice =
              is(checked.facilityIds, facility.id) || facility.buildings.some((b) => is(checked.buildingIds, b.id) || b.id === tree.open?.id);
            return (
              <details key={facility.id} open={holdsChoice || tree.facilities.length === 1} className="rounded-md border px-3 py-2">
                <summary className="cursor-pointer py-1 text-sm font-medium">
                  {facility.name} <span className="font-normal text-muted-foreground">{t("picker.buildings", { count: facility.buildings.length })}</span>
                </summary>
                <div className="grid gap-2 py-2">
                  {allowWhole && facility.whole ? (
                    <CheckboxField
                      id={`${idPrefix}-facility-${facility.id}`}
                      name="facilityIds"
                      value={String(facility.id)}
                      defaultChecked={is(checked.facilityIds, facility.id)}
                      aria-describedby={described}
                      label={t("picker.wholeFacility", { name: facility.name })}
                    />
                  ) : null}
                  <ul className="grid gap-2 border-l pl-3">
                    {facility.buildings.map((building) => (
                      <li key={building.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                        {allowWhole ? (
                          <CheckboxField
                            id={`${idPrefix}-building-${building.id}`}
                            name="buildingIds"
                            value={String(building.id)}
                            defaultChecked={is(checked.buildingIds, building.id)}
                            aria-describedby={described}
                            label={t("picker.wholeBuilding", { name: building.name })}
                          />
                        ) : (
                          <span className="text-sm">{building.name}</span>
                        )}
                        <Button {...browse(`building:${building.id}`)} variant="link" size="sm" className="h-auto px-0" aria-label={t("picker.showRoomsOf", { name: building.name, count: building.rooms })}>
                          {t("picker.showRooms", { count: building.rooms })}
                        </Button>
                      </li>
                    ))}
                  </ul>
                </div>
              </details>
            );
          })}
        </div>
      )}

      {elsewhere.facilities.length + elsewhere.buildings.length + elsewhere.rooms.length + elsewhere.items.length > 0 ? (
        <div className="grid gap-2">
          <p className="text-sm font-medium">{t("picker.alsoChosen")}</p>
          <ul className="grid gap-2">
            {elsewhere.facilities.map((f) => (
              <li key={`f${f.id}`}>
                <CheckboxField id={`${idPrefix}-chosen-facility-${f.id}`} name="facilityIds" value={String(f.id)} defaultChecked={is(checked.facilityIds, f.id)} label={t("picker.wholeFacility", { name: f.name })} />
              </li>
            ))}
            {elsewhere.buildings.map((b) => (
              <li key={`b${b.id}`}>
                <CheckboxField id={`${idPrefix}-chosen-building-${b.id}`} name="buildingIds" value={String(b.id)} defaultChecked={is(checked.buildingIds, b.id)} label={t("picker.wholeBuilding", { name: b.name })} />
              </li>
            ))}
            {elsewhere.rooms.map((r) => (
              <li key={`r${r.id}`}>
                <CheckboxField
                  id={`${idPrefix}-chosen-room-${r.id}`}
                  name="roomIds"
                  value={String(r.id)}
                  defaultChecked={is(checked.roomIds, r.id)}
                  label={t("picker.roomOption", { room: r.name, building: r.buildingName, facility: r.facilityName })}
                />
              </li>
            ))}
            {elsewhere.items.map((i) => (
              <li key={`i${i.id}`}>
                <CheckboxField
                  id={`${idPrefix}-chosen-item-${i.id}`}
                  name="equipmentItemIds"
                  value={String(i.id)}
                  defaultChecked={is(checked.equipmentItemIds, i.id)}
                  label={t("picker.itemIn", { item: itemLabel(i), room: i.roomName, building: i.buildingName })}
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorText id={errorId} errors={errors} />
    </fieldset>
  );
}
