import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { ArchiveFooter } from "./archive-footer";

/** The form of the archive dialog (archive-dialog.tsx), loaded when the dialog opens. */
export default function ArchiveForm({ name, closeTo, lastResult }: { name: string; closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const text = useErrorText();
  // The name is checked in the browser once the form is used (decision 021); the verb checks it always.
  const validator = useMemo(() => zodValidator(() => import("~/lib/archive").then((m) => m.confirmNameFormSchema(name))), [name]);
  const [form, fields] = useZodForm(validator, { id: "archive", lastResult });
  const hintId = `${fields.confirmName.id}-description`;
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={ARCHIVE_INTENT} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label={t("archive.confirmLabel")}
        htmlFor={fields.confirmName.id}
        errors={text(fields.confirmName.errors)}
        description={t("archive.confirmHint", { name })}
        required
      >
        <Input
          {...getInputProps(fields.confirmName, { type: "text", ariaDescribedBy: hintId })}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
      </Field>
      <ArchiveFooter closeTo={closeTo} />
    </Form>
  );
}
