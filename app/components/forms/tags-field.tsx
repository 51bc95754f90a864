import { type FieldMetadata, type FormMetadata, getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { RemoveRowButton } from "~/components/forms/form-parts";
import { ErrorText, useErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { MAX_TAGS } from "~/lib/limits";
import { textOf } from "~/lib/text";

/**
 * The tags of a room type, an equipment category or a generic equipment (schema: `tagsField()`): one
 * text input per tag, a Remove button each and "Add tag" (hidden at 3 tags). The buttons are conform
 * intents: with JavaScript they act in the browser; without, the form posts the intent and the action
 * answers `submission.reply()` (status 400) with the list changed.
 */
export function TagsField({
  form,
  field,
  label,
  max = MAX_TAGS,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<string[] | null | undefined, any, string[]>;
  label?: string;
  max?: number;
}) {
  const { t } = useTranslation();
  const text = useErrorText();
  const tags = field.getFieldList();
  const hintId = `${field.id}-description`;
  const listErrors = text(field.errors);
  return (
    <fieldset className="grid min-w-0 gap-2" aria-describedby={listErrors?.length ? `${hintId} ${field.errorId}` : hintId}>
      <legend className="mb-2 text-sm font-medium leading-none">{label ?? t("tags.label")}</legend>
      <p id={hintId} className="text-sm text-muted-foreground">
        {t("tags.hint")}
      </p>
      {tags.length > 0 ? (
        <ul className="grid gap-2">
          {tags.map((tag, index) => {
            const errors = text(tag.errors);
            return (
              <li key={tag.key} className="grid gap-1">
                <div className="flex items-center gap-2">
                  <Input
                    {...getInputProps(tag, { type: "text" })}
                    aria-label={`${label ?? t("tags.label")} ${index + 1}`}
                    autoComplete="off"
                    className="sm:max-w-xs"
                  />
                  <RemoveRowButton
                    {...form.remove.getButtonProps({ name: field.name, index })}
                    aria-label={t("tags.remove", { tag: textOf(tag.value) || String(index + 1) })}
                  />
                </div>
                <ErrorText id={tag.errorId} errors={errors} />
              </li>
            );
          })}
        </ul>
      ) : null}
      {tags.length < max ? (
        <div>
          <Button {...form.insert.getButtonProps({ name: field.name, defaultValue: "" })} variant="outline" size="sm">
            {t("tags.add")}
          </Button>
        </div>
      ) : null}
      <ErrorText id={field.errorId} errors={listErrors} />
    </fieldset>
  );
}
