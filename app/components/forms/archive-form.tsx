import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useMemo } from "react";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { ArchiveFooter, ConfirmNameField } from "./archive-footer";

/** The form of the archive dialog (archive-dialog.tsx), loaded when the dialog opens. */
export default function ArchiveForm({ name, closeTo, lastResult }: { name: string; closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const text = useErrorText();
  // The name is checked in the browser once the form is used (decision 021); the verb checks it always.
  const validator = useMemo(() => zodValidator(() => import("~/lib/archive").then((m) => m.confirmNameFormSchema(name))), [name]);
  const [form, fields] = useZodForm(validator, { id: "archive", lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={ARCHIVE_INTENT} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConfirmNameField name={name} field={fields.confirmName} errors={text(fields.confirmName.errors)} />
      <ArchiveFooter closeTo={closeTo} />
    </Form>
  );
}
