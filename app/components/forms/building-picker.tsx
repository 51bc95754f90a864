import { useFetcher } from "@remix-run/react";
import { type ReactNode, type SelectHTMLAttributes, useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { SearchField } from "~/components/forms/search-field";
import { BUILDING_AFTER_FIELD, BUILDING_OPTIONS_URL, BUILDING_SEARCH_FIELD } from "~/lib/pickers";
import { Options } from "~/components/ui/options";

/** A building as the picker shows it: "Annex (North campus)". */
export interface BuildingChoice {
  id: number;
  name: string;
  facilityName: string;
}

/** One page of matches, as the server rendered it (or the resource route answers it). */
export interface BuildingSearch {
  q: string;
  options: BuildingChoice[];
  /** The cursor of the next page, null on the last one. */
  next: string | null;
}

/**
 * How a picker's search and "More buildings" submit without JavaScript: in a POST form, as a button
 * `name` (default `intent`) with a value the action recognises; in a GET form, as the form's submit.
 */
export type PickerSubmit = { method: "post"; name?: string; searchIntent: string; moreIntent: string } | { method: "get" };

export interface BuildingPickerProps {
  label: ReactNode;
  /** Props of the select (a conform field's `getSelectProps`, or `name`/`id`/`defaultValue` of a filter). */
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string; name?: string };
  /** The first entry (value ""): "Choose a building" in a form, "All buildings" in a filter. */
  emptyLabel: string;
  /** The chosen building (always offered, whatever the search shows). */
  selected: BuildingChoice | null;
  /** The matches the server rendered: the first page, or the one a search without JavaScript asked for. */
  search: BuildingSearch;
  /** Only buildings of this facility. */
  facilityId?: number | null;
  /**
   * How the search and "More buildings" submit without JavaScript: in a POST form, as an `intent` of the
   * form (the action answers the form with the user's input kept and the matches); in a GET form (a
   * list's filters), as the form's own submit.
   */
  submit: PickerSubmit;
  errors?: string[] | null;
  description?: ReactNode;
  required?: boolean;
  className?: string;
}

const noopSubscribe = () => () => {};
function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}

/**
 * The search state of a building picker: the text, the matches shown and the next page's cursor,
 * starting from what the server rendered. With JavaScript, `type` searches as the user types (debounced)
 * and `more` appends the next page, both from `/building-options`; without it they only keep the text
 * (the form's submit buttons ask the server).
 */
export function useBuildingSearch(search: BuildingSearch, facilityId: number | null = null) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ options: BuildingChoice[]; next: string | null }>();
  const [q, setQ] = useState(search.q);
  const [options, setOptions] = useState(search.options);
  const [next, setNext] = useState(search.next);
  const appending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A search typed but not sent yet: "More buildings" waits for it (its cursor belongs to the old list).
  const [typing, setTyping] = useState(false);

  useEffect(() => {
    const data = fetcher.data;
    if (!data || fetcher.state !== "idle") return;
    setOptions((current) => (appending.current ? [...current, ...data.options.filter((o) => !current.some((c) => c.id === o.id))] : data.options));
    setNext(data.next);
  }, [fetcher.data, fetcher.state]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const load = (text: string, after: string | null) => {
    const params = new URLSearchParams();
    if (text.trim()) params.set("q", text.trim());
    if (after) params.set("after", after);
    if (facilityId) params.set("facilityId", String(facilityId));
    appending.current = after !== null;
    fetcher.load(`${BUILDING_OPTIONS_URL}?${params}`);
  };
  /** The search field's change. */
  const type = (text: string) => {
    setQ(text);
    if (!hydrated) return;
    clearTimeout(timer.current);
    setTyping(true);
    timer.current = setTimeout(() => {
      setTyping(false);
      load(text, null);
    }, 250);
  };
  // The field is uncontrolled, so what was typed before the page hydrated stays; it is searched now.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typed = input.current?.value;
    if (hydrated && typed !== undefined && typed !== q) type(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page hydrates
  }, [hydrated]);
  return {
    hydrated,
    q,
    options,
    next,
    input,
    busy: typing || fetcher.state !== "idle",
    type,
    /** Enter in the search field (with JavaScript): search now, never submit the form. */
    enter(event: { key: string; preventDefault(): void }) {
      if (!hydrated || event.key !== "Enter") return;
      event.preventDefault();
      clearTimeout(timer.current);
      setTyping(false);
      load(q, null);
    },
    more() {
      if (typing) return;
      load(q, next);
    },
  };
}

/** The no-JavaScript submit buttons' props of a picker. */
function pickerButtons(submit: PickerSubmit, next: string | null) {
  return submit.method === "post"
    ? {
        searchButton: { name: submit.name ?? "intent", value: submit.searchIntent, formNoValidate: true },
        moreButton: { name: submit.name ?? "intent", value: submit.moreIntent, formNoValidate: true },
      }
    : { searchButton: { formNoValidate: true }, moreButton: { name: BUILDING_AFTER_FIELD, value: next ?? "", formNoValidate: true } };
}

type SearchState = ReturnType<typeof useBuildingSearch>;

/** A picker's search row: the search field, without JavaScript its "Find" submit button, then `children`. */
function PickerSearchField({ id, name, state, defaultValue, submit, children }: { id: string; name: string; state: SearchState; defaultValue: string; submit: PickerSubmit; children?: ReactNode }) {
  const { t } = useTranslation();
  const { searchButton } = pickerButtons(submit, state.next);
  return (
    <SearchField
      id={id}
      label={t("picker.searchBuildings")}
      name={name}
      inputRef={state.input}
      defaultValue={defaultValue}
      onChange={(event) => state.type(event.currentTarget.value)}
      onKeyDown={(event) => state.enter(event)}
      find={state.hydrated ? undefined : { label: t("picker.find"), ...searchButton }}
    >
      {children}
    </SearchField>
  );
}

/** A picker's "More buildings": the next page's cursor (posted forms) and the button, when there is a next page. */
function PickerMore({ afterName, state, submit }: { afterName: string; state: SearchState; submit: PickerSubmit }) {
  const { t } = useTranslation();
  const { hydrated, next } = state;
  const { moreButton } = pickerButtons(submit, next);
  return (
    <>
      {submit.method === "post" && next ? <input type="hidden" name={afterName} value={next} /> : null}
      {next ? (
        hydrated ? (
          <Button type="button" variant="ghost" size="sm" disabled={state.busy} onClick={() => state.more()}>
            {t("picker.moreBuildings")}
          </Button>
        ) : (
          <Button type="submit" variant="ghost" size="sm" {...moreButton}>
            {t("picker.moreBuildings")}
          </Button>
        )
      ) : null}
    </>
  );
}

/**
 * The frame of a checklist of choices (the buildings here, an incident type's lists): the legend, the
 * list (`children`) or, when there is nothing to choose at all, `emptyText`; the hint, then the errors.
 */
export function ChecklistFieldset({
  legend,
  hint,
  hintId,
  empty,
  emptyText,
  errors,
  children,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  hintId: string;
  empty: boolean;
  emptyText: ReactNode;
  errors?: ReactNode;
  children: ReactNode;
}) {
  return (
    <fieldset className="grid min-w-0 content-start gap-3" aria-describedby={hint ? hintId : undefined}>
      <legend className="mb-3 text-sm font-medium">{legend}</legend>
      {empty ? <p className="text-sm text-muted-foreground">{emptyText}</p> : children}
      {hint ? (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {errors}
    </fieldset>
  );
}

/**
 * What a checklist of choices lists: the ones checked at first and those checked since (kept listed, whatever
 * the search shows), then the matches of the search; `empty` when there is nothing to choose at all (no
 * search, no match). `keep` is a checkbox's change.
 */
export function useKeptChoices<T extends { id: number }>(chosen: T[], matches: T[], q: string) {
  const [kept, setKept] = useState<T[]>(chosen);
  const listed = [...kept, ...matches.filter((o) => !kept.some((k) => k.id === o.id))];
  return {
    listed,
    empty: listed.length === 0 && !q,
    keep(choice: T, checked: boolean) {
      if (checked && !kept.some((k) => k.id === choice.id)) setKept([...kept, choice]);
    },
  };
}

/** The line under a picker: how many matches it shows, or that nothing matches. */
export function buildingSearchStatus(t: (key: string, values?: Record<string, unknown>) => string, state: { q: string; options: unknown[]; next: string | null }) {
  if (state.options.length === 0) return state.q.trim() ? t("picker.noBuilding", { q: state.q.trim() }) : t("picker.noBuildings");
  return state.next ? t("picker.someBuildings", { count: state.options.length }) : t("picker.allBuildings", { count: state.options.length });
}

/**
 * A searchable, paged building picker (decision 017) for sets too large for one select: a native select
 * holding the chosen building and one page of matches, a search field and "More buildings".
 *
 * Without JavaScript the search and "More buildings" are submit buttons of the surrounding form: the
 * server answers the same form (the user's input kept) with the matching page. With JavaScript they
 * read `/building-options?q=&after=` instead (as you type, and page after page), and the
 * form is not submitted.
 */
export function BuildingPicker({
  label,
  selectProps,
  emptyLabel,
  selected,
  search,
  facilityId = null,
  submit,
  errors,
  description,
  required,
  className,
}: BuildingPickerProps) {
  const { t } = useTranslation();
  const searchId = useId();
  const statusId = useId();
  const state = useBuildingSearch(search, facilityId);
  const { options } = state;
  const [chosen, setChosen] = useState<BuildingChoice | null>(selected);

  const labelOf = (b: BuildingChoice) => t("picker.buildingOption", { building: b.name, facility: b.facilityName });
  const shown = chosen && !options.some((o) => o.id === chosen.id) ? [chosen, ...options] : options;
  const { onChange, ...select } = selectProps;

  return (
    <Field label={label} htmlFor={select.id} errors={errors} description={description} required={required} className={className}>
      <div className="grid gap-2">
        <Select
          {...select}
          aria-describedby={[select["aria-describedby"], statusId].filter(Boolean).join(" ")}
          onChange={(event) => {
            const id = Number(event.currentTarget.value);
            setChosen(shown.find((o) => o.id === id) ?? null);
            onChange?.(event);
          }}
        >
          <option value="">{emptyLabel}</option>
          <Options values={shown} label={(option) => labelOf(option)} />
        </Select>
        <PickerSearchField id={searchId} name={BUILDING_SEARCH_FIELD} state={state} defaultValue={search.q} submit={submit}>
          <PickerMore afterName={BUILDING_AFTER_FIELD} state={state} submit={submit} />
        </PickerSearchField>
        <p id={statusId} aria-live="polite" className="text-sm text-muted-foreground">
          {buildingSearchStatus(t, state)}
        </p>
      </div>
    </Field>
  );
}

/** What every checklist of choices takes (the buildings here, an incident type's lists). */
export interface ChecklistProps<T> {
  legend: ReactNode;
  hint?: ReactNode;
  /** The checkboxes' name (a conform collection field's `name`) and the prefix of their ids. */
  name: string;
  idPrefix: string;
  /** The ids checked at first (the field's initial value). */
  checked: string[];
  /** The checked choices, named (always shown, whatever the search shows). */
  chosen: T[];
  errors?: string[] | null;
  /** Shown instead of the list when there is nothing to choose at all. */
  emptyText: ReactNode;
}

export interface BuildingChecklistProps extends ChecklistProps<BuildingChoice> {
  /** One page of matches, as the server rendered it. */
  search: BuildingSearch;
  submit: PickerSubmit;
  /**
   * The names of the search field and of the next page's cursor: change them when one form holds two
   * checklists (e.g. a user's linked buildings and notification buildings).
   */
  searchName?: string;
  afterName?: string;
}

/**
 * The several-buildings variant of the picker (decision 017): the checked buildings, then one page of
 * matches as checkboxes, with the same search and "More buildings" (a form's submit buttons without
 * JavaScript, `/building-options` with it). A building checked from the matches stays listed.
 */
export function BuildingChecklist({
  legend,
  hint,
  name,
  idPrefix,
  checked,
  chosen,
  search,
  submit,
  errors,
  emptyText,
  searchName = BUILDING_SEARCH_FIELD,
  afterName = BUILDING_AFTER_FIELD,
}: BuildingChecklistProps) {
  const { t } = useTranslation();
  const searchId = useId();
  const hintId = useId();
  const state = useBuildingSearch(search);
  const { listed, empty, keep } = useKeptChoices(chosen, state.options, state.q);

  return (
    <ChecklistFieldset
      legend={legend}
      hint={hint}
      hintId={hintId}
      empty={empty}
      emptyText={emptyText}
      errors={
        errors?.length ? (
          <div id={`${idPrefix}-error`} className="grid gap-1 text-sm font-medium text-destructive">
            {[...new Set(errors)].map((error) => (
              <p key={error}>{error}</p>
            ))}
          </div>
        ) : null
      }
    >
      <PickerSearchField id={searchId} name={searchName} state={state} defaultValue={search.q} submit={submit} />
      <div className="grid max-h-64 gap-2 overflow-y-auto rounded-md border p-3 sm:grid-cols-2">
        {listed.map((building) => {
          const id = `${idPrefix}-${building.id}`;
          return (
            <div key={building.id} className="flex items-center gap-3">
              <Checkbox
                id={id}
                name={name}
                value={String(building.id)}
                defaultChecked={checked.includes(String(building.id))}
                onChange={(event) => keep(building, event.currentTarget.checked)}
              />
              <Label htmlFor={id} className="cursor-pointer leading-snug">
                {t("picker.buildingOption", { building: building.name, facility: building.facilityName })}
              </Label>
            </div>
          );
        })}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <p aria-live="polite" className="text-sm text-muted-foreground">
          {buildingSearchStatus(t, state)}
        </p>
        <PickerMore afterName={afterName} state={state} submit={submit} />
      </div>
    </ChecklistFieldset>
  );
}
