import { useId } from "react";
import { type BuildingChoice, BuildingPicker, type BuildingSearch } from "~/components/forms/building-picker";
import { FilterSelect } from "~/components/lists/list-toolbar";

export interface LocationFiltersProps {
  /** The texts of the calling screen's namespace. */
  labels: { facility: string; allFacilities: string; building: string; allBuildings: string };
  facilities: { id: number; name: string }[];
  facilityId: number | null;
  buildingId: number | null;
  buildingPicker: { selected: BuildingChoice | null; search: BuildingSearch };
}

/**
 * The facility and building filters of a GET filter form (the incidents list, the dashboard): a
 * select of the facilities the viewer may reach and the searchable, paged building picker, narrowed to
 * the chosen facility. Meant to sit in the caller's grid.
 */
export function LocationFilters({ labels, facilities, facilityId, buildingId, buildingPicker }: LocationFiltersProps) {
  const buildingSelectId = useId();
  return (
    <>
      <FilterSelect
        name="facility"
        label={labels.facility}
        value={facilityId}
        options={facilities.map((o) => ({ value: o.id, label: o.name }))}
        allLabel={labels.allFacilities}
        fieldClassName="content-start"
        widthClassName=""
      />
      <BuildingPicker
        // A new search answer or another facility starts the picker afresh.
        key={`${buildingPicker.search.q}|${buildingPicker.search.options[0]?.id ?? ""}|${buildingId ?? ""}|${facilityId ?? ""}`}
        className="content-start"
        label={labels.building}
        selectProps={{ id: buildingSelectId, name: "building", defaultValue: buildingId === null ? "" : String(buildingId) }}
        emptyLabel={labels.allBuildings}
        selected={buildingPicker.selected}
        search={buildingPicker.search}
        facilityId={facilityId}
        submit={{ method: "get" }}
      />
    </>
  );
}
