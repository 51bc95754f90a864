import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ArchiveDialog } from "~/components/forms/archive-dialog";
import { ArchiveFooter, ConfirmNameField } from "~/components/forms/archive-footer";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";

/**
 * The archive confirmation of an incident type (`?dialog=archive`, works without JavaScript): the
 * user retypes one of its names (the one shown is the reader's language); the verb checks it and
 * answers "Wrong Name" beside the field. Archiving removes the type from Pending and In Progress
 * incidents (SPEC.md section 4).
 */
export function ArchiveIncidentTypeDialog({ name, names, lastResult }: { name: string; names: string[]; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentTypes");
  return (
    <ArchiveDialog
      name={name}
      details={t("archive.details")}
      form={(closeTo) => <ArchiveIncidentTypeForm name={name} names={names} closeTo={closeTo} lastResult={lastResult} />}
    />
  );
}

function ArchiveIncidentTypeForm({ name, names, closeTo, lastResult }: { name: string; names: string[]; closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const text = useErrorText(["incidentTypes"]);
  const validator = useMemo(
    () =>
      zodValidator(() =>
        Promise.all([import("zod"), import("~/lib/archive")]).then(([{ z }, archive]) =>
          z.object({
            confirmName: z
              .string({ error: archive.WRONG_NAME })
              .refine((value) => names.some((n) => archive.confirmNameMatches(n, value)), archive.WRONG_NAME),
          }),
        ),
      ),
    [names],
  );
  const [form, fields] = useZodForm(validator, { id: "archive", lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={ARCHIVE_INTENT} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["incidentTypes"]} />
      <ConfirmNameField name={name} field={fields.confirmName} errors={text(fields.confirmName.errors)} />
      <ArchiveFooter closeTo={closeTo} />
    </Form>
  );
}
