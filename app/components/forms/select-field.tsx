import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { Field, fieldDescriptionId } from "~/components/ui/field";
import { Options } from "~/components/ui/options";
import { Select } from "~/components/ui/select";

export interface SelectOption {
  id: number | string;
  name: string;
}

export interface SelectOptionGroup {
  id: number;
  name: string;
  options: SelectOption[];
}

/** Options grouped for an `<optgroup>` each (e.g. the buildings by facility), groups in the order they first appear. */
export function groupOptions<T extends SelectOption>(items: T[], groupOf: (item: T) => { id: number; name: string }): SelectOptionGroup[] {
  const groups = new Map<number, SelectOptionGroup>();
  for (const item of items) {
    const { id, name } = groupOf(item);
    const group = groups.get(id) ?? { id, name, options: [] };
    group.options.push(item);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/**
 * A labelled native select of a conform field: the "Choose …" entry (value "") first, then the
 * options, flat or in groups. A `description` (a hint, or why the list is empty) sits below the
 * select and describes it.
 */
export function SelectField({
  label,
  field,
  errors,
  description,
  required,
  placeholder,
  options,
}: {
  label: ReactNode;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<any, any, string[]>;
  /** The field's errors, as text (useErrorText). */
  errors?: string[] | null;
  description?: ReactNode;
  required?: boolean;
  placeholder: string;
  options: SelectOption[] | SelectOptionGroup[];
}) {
  return (
    <Field label={label} htmlFor={field.id} errors={errors} description={description} required={required}>
      <Select {...getSelectProps(field, { ariaDescribedBy: description ? fieldDescriptionId(field.id) : undefined })}>
        <option value="">{placeholder}</option>
        {(options as (SelectOption | SelectOptionGroup)[]).map((option) =>
          "options" in option ? (
            <optgroup key={option.id} label={option.name}>
              <Options values={option.options} />
            </optgroup>
          ) : (
            <Options key={option.id} values={[option]} />
          ),
        )}
      </Select>
    </Field>
  );
}
