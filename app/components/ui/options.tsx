import type { ReactNode } from "react";

type OptionValue = string | number;

/**
 * The `<option>`s of `values`: plain values (a status, a language code) or records with an `id`, each
 * posting its value or id and labelled by `label` (by default the value itself or the record's name).
 */
export function Options<T extends OptionValue | { id: OptionValue; name?: string }>({ values, label }: { values: readonly T[]; label?: (value: T) => ReactNode }) {
  return (
    <>
      {values.map((value) => {
        const id: OptionValue = typeof value === "object" ? value.id : (value as OptionValue);
        return (
          <option key={id} value={id}>
            {label ? label(value) : typeof value === "object" ? value.name : value}
          </option>
        );
      })}
    </>
  );
}
