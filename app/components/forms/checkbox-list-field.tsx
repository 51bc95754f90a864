import { type FieldMetadata, getCollectionProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { CheckboxField, FormSection } from "~/components/forms/form-parts";
import { ErrorText, useErrorText } from "~/components/forms/zod-form";

/**
 * A titled group of checkboxes, one per option, posting the chosen ids under the field's name (e.g.
 * the incident types of a room or of a generic equipment), with the list's errors below.
 */
export function CheckboxListField({
  title,
  description,
  field,
  options,
}: {
  title: ReactNode;
  description?: ReactNode;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<any, any, string[]>;
  options: { id: number; name: string }[];
}) {
  const text = useErrorText();
  const errors = text(field.errors);
  const boxes = getCollectionProps(field, { type: "checkbox", options: options.map((option) => String(option.id)) });
  return (
    <FormSection title={title} description={description}>
      {options.length ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {boxes.map(({ key, type: _type, ...props }, index) => (
            <CheckboxField key={key} {...props} label={options[index].name} />
          ))}
        </div>
      ) : null}
      <ErrorText id={field.errorId} errors={errors} />
    </FormSection>
  );
}
