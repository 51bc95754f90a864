import { useFetcher } from "@remix-run/react";
import { type ReactNode, type SelectHTMLAttributes, useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { BUILDING_AFTER_FIELD, BUILDING_OPTIONS_URL, BUILDING_SEARCH_FIELD } from "~/lib/pickers";

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
  submit: { method: "post"; searchIntent: string; moreIntent: string } | { method: "get" };
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
  const hydrated = useHydrated();
  const searchId = useId();
  const statusId = useId();
  const fetcher = useFetcher<{ options: BuildingChoice[]; next: string | null }>();
  const [q, setQ] = useState(search.q);
  const [options, setOptions] = useState(search.options);
  const [next, setNext] = useState(search.next);
  const [chosen, setChosen] = useState<BuildingChoice | null>(selected);
  const appending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

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

  const labelOf = (b: BuildingChoice) => t("picker.buildingOption", { building: b.name, facility: b.facilityName });
  const shown = chosen && !options.some((o) => o.id === chosen.id) ? [chosen, ...options] : options;
  const { onChange, ...select } = selectProps;
  const searchButton =
    submit.method === "post" ? { name: "intent", value: submit.searchIntent, formNoValidate: true } : { formNoValidate: true };
  const moreButton =
    submit.method === "post"
      ? { name: "intent", value: submit.moreIntent, formNoValidate: true }
      : { name: BUILDING_AFTER_FIELD, value: next ?? "", formNoValidate: true };

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
          {shown.map((option) => (
            <option key={option.id} value={option.id}>
              {labelOf(option)}
            </option>
          ))}
        </Select>
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor={searchId} className="sr-only">
            {t("picker.searchBuildings")}
          </Label>
          <Input
            id={searchId}
            type="search"
            name={BUILDING_SEARCH_FIELD}
            value={q}
            placeholder={t("picker.searchBuildings")}
            autoComplete="off"
            className="min-w-0 flex-1 basis-40"
            onChange={(event) => {
              const text = event.currentTarget.value;
              setQ(text);
              if (!hydrated) return;
              clearTimeout(timer.current);
              timer.current = setTimeout(() => load(text, null), 250);
            }}
            onKeyDown={(event) => {
              // With JavaScript, Enter searches (it never submits the surrounding form).
              if (hydrated && event.key === "Enter") {
                event.preventDefault();
                clearTimeout(timer.current);
                load(q, null);
              }
            }}
          />
          {hydrated ? null : (
            <Button type="submit" variant="outline" size="sm" {...searchButton}>
              {t("picker.find")}
            </Button>
          )}
          {submit.method === "post" && next ? <input type="hidden" name={BUILDING_AFTER_FIELD} value={next} /> : null}
          {next ? (
            hydrated ? (
              <Button type="button" variant="ghost" size="sm" disabled={fetcher.state !== "idle"} onClick={() => load(q, next)}>
                {t("picker.moreBuildings")}
              </Button>
            ) : (
              <Button type="submit" variant="ghost" size="sm" {...moreButton}>
                {t("picker.moreBuildings")}
              </Button>
            )
          ) : null}
        </div>
        <p id={statusId} aria-live="polite" className="text-sm text-muted-foreground">
          {options.length === 0
            ? q.trim()
              ? t("picker.noBuilding", { q: q.trim() })
              : t("picker.noBuildings")
            : next
              ? t("picker.someBuildings", { count: options.length })
              : t("picker.allBuildings", { count: options.length })}
        </p>
      </div>
    </Field>
  );
}
