import { Form, Link, useSearchParams } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { BuildingChoice, BuildingSearch } from "~/components/forms/building-picker";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { FilterSelect } from "~/components/lists/list-toolbar";
import { LocationFilters } from "~/components/lists/location-filters";
import { BUILDING_AFTER_FIELD, BUILDING_SEARCH_FIELD } from "~/lib/pickers";
import { DASHBOARD_PATH, type DashboardFilters as Filters, type DashboardPeriod } from "~/modules/dashboard/filters";

export interface DashboardFiltersProps {
  filters: Filters;
  period: DashboardPeriod;
  types: { id: number; name: string }[];
  facilities: { id: number; name: string }[];
  buildingPicker: { selected: BuildingChoice | null; search: BuildingSearch };
}

/**
 * The dashboard's filters: one GET form (bookmarkable, works without JavaScript): facility, building
 * (the searchable picker), incident type and the period (the last six months when left empty). On a
 * phone they fold under their name (`.phone-disclosure`), so that the figures come sooner; open when
 * one is set or the building picker was searched or paged.
 */
export function DashboardFilters({ filters, period, types, facilities, buildingPicker }: DashboardFiltersProps) {
  const { t } = useTranslation("dashboard");
  const ids = { from: useId(), to: useId() };
  const [params] = useSearchParams();
  const set = period.custom || Boolean(filters.facilityId || filters.buildingId || filters.incidentTypeId);
  const picking = (params.get(BUILDING_SEARCH_FIELD) ?? "").trim() !== "" || params.has(BUILDING_AFTER_FIELD);
  return (
    <details open={set || picking} className="phone-disclosure print:hidden">
      <summary className="phone-disclosure-summary">{t("filters.label")}</summary>
      <Form method="get" role="search" preventScrollReset aria-label={t("filters.label")} className="grid gap-4 rounded-md border bg-background p-4 print:hidden">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <LocationFilters
            labels={{ facility: t("filters.facility"), allFacilities: t("filters.allFacilities"), building: t("filters.building"), allBuildings: t("filters.allBuildings") }}
            facilities={facilities}
            facilityId={filters.facilityId}
            buildingId={filters.buildingId}
            buildingPicker={buildingPicker}
          />
          <FilterSelect
            name="type"
            label={t("filters.type")}
            value={filters.incidentTypeId}
            options={types.map((o) => ({ value: o.id, label: o.name }))}
            allLabel={t("filters.allTypes")}
            fieldClassName="content-start"
            widthClassName=""
          />
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.from}>{t("filters.from")}</Label>
            <Input id={ids.from} type="date" name="from" defaultValue={period.from} key={period.from} />
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.to}>{t("filters.to")}</Label>
            <Input id={ids.to} type="date" name="to" defaultValue={period.to} key={period.to} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">{t("filters.apply")}</Button>
          {period.custom || filters.facilityId || filters.buildingId || filters.incidentTypeId ? (
            <Link to={DASHBOARD_PATH} className={buttonVariants({ variant: "ghost" })}>
              {t("filters.reset")}
            </Link>
          ) : null}
        </div>
      </Form>
    </details>
  );
}
