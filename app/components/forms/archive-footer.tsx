import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";
import { DialogFooter } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { SubmitButton } from "./form-parts";

/** The archive dialogs' buttons: cancel (back to the page) and the destructive confirmation. */
export function ArchiveFooter({ closeTo }: { closeTo: string }) {
  const { t } = useTranslation();
  return (
    <DialogFooter className="mt-2">
      <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
        {t("archive.cancel")}
      </Link>
      <SubmitButton intent={ARCHIVE_INTENT} variant="destructive">
        {t("archive.action")}
      </SubmitButton>
    </DialogFooter>
  );
}

/**
 * The retyped name of every archive dialog (SPEC.md section 5): the label, the hint naming `name`, the
 * field's errors (already text). `autoFocus` is off where a field above it comes first.
 */
export function ConfirmNameField({
  name,
  field,
  errors,
  autoFocus = true,
}: {
  name: string;
  field: FieldMetadata<string, Record<string, unknown>, string[]>;
  errors?: string[];
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Field label={t("archive.confirmLabel")} htmlFor={field.id} errors={errors} description={t("archive.confirmHint", { name })} required>
      <Input
        {...getInputProps(field, { type: "text", ariaDescribedBy: `${field.id}-description` })}
        autoComplete="off"
        spellCheck={false}
        data-autofocus={autoFocus ? true : undefined}
      />
    </Field>
  );
}
