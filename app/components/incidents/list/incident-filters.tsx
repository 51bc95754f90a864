import { Form, Link, useLocation } from "@remix-run/react";
import { type ReactNode, useEffect, useId, useRef } from "react";
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
import { activeFilterCount, DUE_FILTERS, type IncidentFilters as Filters } from "~/modules/incidents/filters";
import { clearFiltersHref, FILTERS_PARAM, type ListView, withParam } from "~/modules/incidents/list-url";
import type { AssigneeChoice } from "./shared";
import { Options } from "~/components/ui/options";

/** The choices of the "More filters" panel, loaded only while it is open (decision 021). */
export interface FilterChoices {
  types: { id: number; name: string }[];
  facilities: { id: number; name: string }[];
  assignees: AssigneeChoice[];
  buildingPicker: { selected: BuildingChoice | null; search: BuildingSearch };
}

export interface IncidentFiltersProps {
  view: ListView;
  filters: Filters;
  query: ListQuery;
  /** The panel's choices when it is open (`?filters=1` or one of its filters set), else null. */
  choices: FilterChoices | null;
}

/**
 * The filters of the table and the board: one GET form (so a view can be bookmarked and it works without
 * JavaScript): search, statuses, priorities, then in "More filters" the assignee, incident type,
 * facility, building (the searchable picker), room, tags and creation dates. The view, sort and page size
 * are kept; the page starts again at 1. The panel's long lists come with the page only when it is open:
 * closed, "More filters" is a link to the same list with `?filters=1` (in the app with JavaScript, a new
 * page without), which opens it with its choices and puts the focus in it.
 *
 * Below the lg breakpoint the form folds away under a "Filters" disclosure (a native <details>, so it
 * opens without JavaScript), so that a phone shows the list on its first screen; it comes open when a
 * filter is set or the panel was asked for, and its summary says how many filters are set. From lg the
 * stylesheet hides the summary and shows the form as it always was (`.phone-disclosure`).
 */
export function IncidentFilters({ view, filters, query, choices }: IncidentFiltersProps) {
  const { t } = useTranslation("incidentList");
  const location = useLocation();
  const ids = { q: useId(), qHint: useId() };
  const statuses = view === "board" ? BOARD_STATUSES : SETTABLE_STATUSES;
  const active = activeFilterCount(filters);

  return (
    <details open={active > 0 || choices !== null} className="phone-disclosure">
      <summary className="phone-disclosure-summary">
        {t("filters.label")}
        {active > 0 ? <span className="font-normal text-muted-foreground">{t("filters.active", { count: active })}</span> : null}
      </summary>
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

        <CheckboxGroup legend={t("serviceLevels:filter.legend")}>
          {DUE_FILTERS.map((value) => (
            <RadioOption key={value} name="due" value={value} checked={filters.due === value}>
              {t(`serviceLevels:filter.${value}`)}
            </RadioOption>
          ))}
          <RadioOption name="due" value="" checked={filters.due === null}>
            {t("serviceLevels:filter.any")}
          </RadioOption>
        </CheckboxGroup>

        {choices ? (
          <MoreFilters filters={filters} choices={choices} />
        ) : (
          <Link
            to={withParam(location.search, FILTERS_PARAM, "1")}
            preventScrollReset
            state={{ [FOCUS_PANEL]: true }}
            className="inline-flex min-h-9 w-fit items-center rounded text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            {t("filters.more")}
          </Link>
        )}

        <div className="flex flex-wrap gap-2">
          <Button type="submit">{t("filters.apply")}</Button>
          <Link to={clearFiltersHref(view)} className={cn(buttonVariants({ variant: "ghost" }))}>
            {t("clearFilters")}
          </Link>
        </div>
      </Form>
    </details>
  );
}

/** The location state of the "More filters" link: the panel takes the focus once open. */
const FOCUS_PANEL = "focusFilters";

/** The "More filters" panel, open, with its choices. */
function MoreFilters({ filters, choices }: { filters: Filters; choices: FilterChoices }) {
  const { t } = useTranslation("incidentList");
  const location = useLocation();
  const summary = useRef<HTMLElement>(null);
  const focus = Boolean((location.state as Record<string, unknown> | null)?.[FOCUS_PANEL]);
  useEffect(() => {
    if (focus) summary.current?.focus();
  }, [focus]);
  const ids = { assignee: useId(), room: useId(), tags: useId(), from: useId(), to: useId(), tagsHint: useId() };
  const { types, facilities, assignees, buildingPicker } = choices;
  const assignee = filters.assignee === null ? "" : String(filters.assignee);
  return (
    <details open className="group">
      <summary ref={summary} className="inline-flex min-h-9 cursor-pointer items-center rounded text-sm font-medium text-primary underline-offset-4 hover:underline">
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
            <Options values={assignees} />
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

function RadioOption({ name, value, checked, children }: { name: string; value: string; checked: boolean; children: ReactNode }) {
  return (
    <label className="ui-label flex min-h-9 cursor-pointer items-center gap-2 font-normal">
      <input type="radio" name={name} value={value} defaultChecked={checked} key={String(checked)} className="size-4 accent-primary" />
      {children}
    </label>
  );
}

function CheckboxOption({ name, value, checked, children }: { name: string; value: string; checked: boolean; children: ReactNode }) {
  // The label around its box: no ids to write out for ten boxes.
  return (
    <label className="ui-label flex min-h-9 cursor-pointer items-center gap-2 font-normal">
      <Checkbox name={name} value={value} defaultChecked={checked} key={String(checked)} />
      {children}
    </label>
  );
}
