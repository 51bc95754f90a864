import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ChecklistFieldset, type ChecklistProps, useKeptChoices } from "~/components/forms/building-picker";
import { CheckboxField } from "~/components/forms/form-parts";
import { SearchField } from "~/components/forms/search-field";
import { ErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { pickerIntent, PICKERS, type PickerKind } from "~/lib/incident-type-form";

/** One page of matches, as the server rendered it. */
export interface ChoiceSearch<T> {
  q: string;
  page: number;
  pages: number;
  total: number;
  options: T[];
}

export interface SearchableChecklistProps<T> extends ChecklistProps<T> {
  kind: PickerKind;
  search: ChoiceSearch<T>;
  labelOf: (choice: T) => string;
  errorId?: string;
  searchLabel: string;
  /** The line under the list: what it shows. */
  statusText: string;
}

/**
 * A checklist of a set that can be large (rooms, default assignees): the checked ones first (always
 * listed), then one page of matches. Search, Previous and Next are submit buttons of the form
 * (`intent=rooms-find`, ...): the server answers the form again, the user's input kept, with the page
 * asked for; the same with JavaScript (Enter in the search field presses Search, not Save).
 */
export function SearchableChecklist<T extends { id: number }>(props: SearchableChecklistProps<T>) {
  const { kind, search, labelOf, errorId, searchLabel, statusText, legend, hint, name, idPrefix, checked, chosen, errors, emptyText } = props;
  const { t } = useTranslation("incidentTypes");
  const searchId = useId();
  const hintId = useId();
  const { listed, empty, keep } = useKeptChoices(chosen, search.options, search.q);
  // A short list (one page, no search) needs no search field nor pages.
  const searchable = search.pages > 1 || Boolean(search.q);
  const fields = PICKERS[kind];
  const button = (move: "find" | "prev" | "next") => ({ type: "submit" as const, name: "intent", value: pickerIntent(kind, move), formNoValidate: true });

  return (
    <ChecklistFieldset legend={legend} hint={hint} hintId={hintId} empty={empty} emptyText={emptyText} errors={<ErrorText id={errorId} errors={errors} />}>
      <SearchField
        id={searchId}
        label={searchLabel}
        name={fields.search}
        defaultValue={search.q}
        hidden={!searchable}
        find={{ label: t("form.find"), enterFinds: true, ...button("find") }}
      />
      <input type="hidden" name={fields.page} value={search.page} />
      {listed.length ? (
        <div className="grid max-h-72 gap-2 overflow-y-auto rounded-md border p-3 sm:grid-cols-2">
          {listed.map((choice) => (
            <CheckboxField
              key={choice.id}
              id={`${idPrefix}-${choice.id}`}
              name={name}
              value={String(choice.id)}
              defaultChecked={checked.includes(String(choice.id))}
              aria-describedby={errors?.length ? errorId : undefined}
              label={labelOf(choice)}
              onChange={(event) => keep(choice, event.currentTarget.checked)}
            />
          ))}
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-2" hidden={!searchable}>
        <p aria-live="polite" className="mr-auto text-sm text-muted-foreground">
          {statusText}
        </p>
        {search.page > 1 ? (
          <Button {...button("prev")} variant="ghost" size="sm">
            {t("form.previousPage")}
          </Button>
        ) : null}
        {search.page < search.pages ? (
          <Button {...button("next")} variant="ghost" size="sm">
            {t("form.nextPage")}
          </Button>
        ) : null}
      </div>
    </ChecklistFieldset>
  );
}
