import { Form, Link } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { BuildingChoice, BuildingSearch } from "~/components/forms/building-picker";
import { FilterSelect } from "~/components/lists/list-toolbar";
import { LocationFilters } from "~/components/lists/location-filters";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import type { ListQuery } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { ASSIGNEE_ME, ASSIGNEE_NONE, BOARD_STATUSES, NO_PRIORITY, SETTABLE_STATUSES } from "~/modules/incidents/constants";
import type { IncidentFilters as Filters } from "~/modules/incidents/filters";
import { clearFiltersHref, type ListView } from "~/modules/incidents/list-url";
import type { AssigneeChoice } from "./shared";

export interface IncidentFiltersProps {
  view: ListView;
  filters: Filters;
  query: ListQuery;
  types: { id: number; name: string }[];
  facilities: { id: number; name: string }[];
  assignees: AssigneeChoice[];
  buildingPicker: { selected: BuildingChoice | null; search: BuildingSearch };
}

/**
 * The filters of the table and the board: one GET form (so a view can be bookmarked and it works without
 * JavaScript): search, statuses, priorities, then in "More filters" the assignee, incident type,
 * facility, building (the searchable picker), room, tags and creation dates. The view, sort and page size
 * are kept; the page starts again at 1.
 */
export function IncidentFilters({ view, filters, query, types, facilities, assignees, buildingPicker }: IncidentFiltersProps) {
  const { t } = useTranslation("incidentList");
  const ids = {
    q: useId(),
    assignee: useId(),
    room: useId(),
    tags: useId(),
    from: useId(),
    to: useId(),
    qHint: useId(),
    tagsHint: useId(),
  };
  const statuses = view === "board" ? BOARD_STATUSES : SETTABLE_STATUSES;
  const more =
    filters.assignee !== null ||
    filters.incidentTypeId !== null ||
    filters.facilityId !== null ||
    filters.buildingId !== null ||
    filters.roomId !== null ||
    filters.tags.length > 0 ||
    filters.from !== null ||
    filters.to !== null ||
    buildingPicker.search.q !== "";
  const assignee = filters.assignee === null ? "" : String(filters.assignee);

  return (
    <Form method="get" role="search" preventScrollReset aria-label={t("filters.label")} className="grid gap-4 rounded-md border bg-background p-4">
      <input type="hidden" name="view" value={view} />
      {query.sort !== "createdAt" || query.dir !== "desc" ? (
        <>
          <input type="hidden" name="sort" value={query.sort} />
          <input type="hidden" name="dir" value={query.dir} />
        </>
      ) : null}
      {query.size !== 25 ? <input type="hidden" name="size" value={query.size} /> : null}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,18rem)_1fr_1fr] lg:items-start">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.q}>{t("filters.search")}</Label>
          <Input id={ids.q} type="search" name="q" defaultValue={filters.q} key={filters.q} autoComplete="off" aria-describedby={ids.qHint} />
          <p id={ids.qHint} className="text-xs text-muted-foreground">
            {t("filters.searchHint")}
          </p>
        </div>
        <CheckboxGroup legend={t("filters.status")}>
          {statuses.map((status) => (
            <CheckboxOption key={status} name="status" value={String(status)} checked={filters.statuses.includes(status)}>
              {t(`incidents:status.${status}`)}
            </CheckboxOption>
          ))}
        </CheckboxGroup>
        <CheckboxGroup legend={t("filters.priority")}>
          {[NO_PRIORITY, "3", "2", "1", "0"].map((p) => (
            <CheckboxOption key={p} name="priority" value={p} checked={filters.priorities.includes(p === NO_PRIORITY ? null : Number(p))}>
              {t(`incidents:priority.${p}`)}
            </CheckboxOption>
          ))}
        </CheckboxGroup>
      </div>

      <details open={more} className="group">
        <summary className="inline-flex min-h-9 cursor-pointer items-center rounded text-sm font-medium text-primary underline-offset-4 hover:underline">
          {t("filters.more")}
        </summary>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.assignee}>{t("filters.assignee")}</Label>
            <Select id={ids.assignee} name="assignee" defaultValue={assignee} key={assignee}>
              <option value="">{t("filters.anyone")}</option>
              <option value={ASSIGNEE_ME}>{t("filters.me")}</option>
              <option value={ASSIGNEE_NONE}>{t("incidents:unassigned")}</option>
              {typeof filters.assignee === "number" && !assignees.some((a) => a.id === filters.assignee) ? (
                <option value={filters.assignee}>{t("filters.userNumber", { id: filters.assignee })}</option>
              ) : null}
              {assignees.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </Select>
          </div>
          <FilterSelect
            name="type"
            label={t("filters.type")}
            value={filters.incidentTypeId}
            options={types.map((o) => ({ value: o.id, label: o.name }))}
            allLabel={t("filters.allTypes")}
            fieldClassName="content-start"
            widthClassName=""
          />
          <LocationFilters
            labels={{ facility: t("filters.facility"), allFacilities: t("filters.allFacilities"), building: t("filters.building"), allBuildings: t("filters.allBuildings") }}
            facilities={facilities}
            facilityId={filters.facilityId}
            buildingId={filters.buildingId}
            buildingPicker={buildingPicker}
          />
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.room}>{t("filters.room")}</Label>
            <Input id={ids.room} type="number" inputMode="numeric" min={1} name="room" defaultValue={filters.roomId ?? ""} key={filters.roomId ?? ""} />
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.tags}>{t("filters.tags")}</Label>
            <Input id={ids.tags} name="tag" defaultValue={filters.tags.join(", ")} key={filters.tags.join(",")} aria-describedby={ids.tagsHint} autoComplete="off" />
            <p id={ids.tagsHint} className="text-xs text-muted-foreground">
              {t("filters.tagsHint")}
            </p>
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.from}>{t("filters.from")}</Label>
            <Input id={ids.from} type="date" name="from" defaultValue={filters.from ?? ""} key={filters.from ?? ""} />
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={ids.to}>{t("filters.to")}</Label>
            <Input id={ids.to} type="date" name="to" defaultValue={filters.to ?? ""} key={filters.to ?? ""} />
          </div>
        </div>
      </details>

      <div className="flex flex-wrap gap-2">
        <Button type="submit">{t("filters.apply")}</Button>
        <Link to={clearFiltersHref(view)} className={cn(buttonVariants({ variant: "ghost" }))}>
          {t("clearFilters")}
        </Link>
      </div>
    </Form>
  );
}

function CheckboxGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="grid min-w-0 gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">{children}</div>
    </fieldset>
  );
}

function CheckboxOption({ name, value, checked, children }: { name: string; value: string; checked: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex min-h-9 items-center gap-2">
      <Checkbox id={id} name={name} value={value} defaultChecked={checked} key={String(checked)} />
      <Label htmlFor={id} className="cursor-pointer font-normal">
        {children}
      </Label>
    </div>
  );
}
