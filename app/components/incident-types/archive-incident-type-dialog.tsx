import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ArchiveFooter } from "~/components/forms/archive-footer";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Dialog, useUrlDialog } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ARCHIVE_DIALOG, ARCHIVE_INTENT } from "~/lib/archive-intent";

/**
 * The archive confirmation of an incident type (`?dialog=archive`, works without JavaScript): the
 * user retypes one of its names (the one shown is the reader's language); the verb checks it and
 * answers "Wrong Name" beside the field. Archiving removes the type from Pending and In Progress
 * incidents (SPEC.md section 4).
 */
export function ArchiveIncidentTypeDialog({ name, names, lastResult }: { name: string; names: string[]; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentTypes");
  const text = useErrorText(["incidentTypes"]);
  const dialog = useUrlDialog(ARCHIVE_DIALOG);
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
  const hintId = `${fields.confirmName.id}-description`;
  return (
    <Dialog
      open={dialog.open}
      closeTo={dialog.closeTo}
      title={t("common:archive.title", { name })}
      description={t("common:archive.warning")}
      closeLabel={t("common:actions.close")}
      size="sm"
    >
      <p className="mb-4 text-sm">{t("archive.details")}</p>
      <Form method="post" {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="intent" value={ARCHIVE_INTENT} />
        <FormErrors id={form.errorId} errors={form.errors} ns={["incidentTypes"]} />
        <Field
          label={t("common:archive.confirmLabel")}
          htmlFor={fields.confirmName.id}
          errors={text(fields.confirmName.errors)}
          description={t("common:archive.confirmHint", { name })}
          required
        >
          <Input {...getInputProps(fields.confirmName, { type: "text", ariaDescribedBy: hintId })} autoComplete="off" spellCheck={false} data-autofocus />
        </Field>
        <ArchiveFooter closeTo={dialog.closeTo} />
      </Form>
    </Dialog>
  );
}
