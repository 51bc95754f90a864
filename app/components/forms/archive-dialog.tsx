import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import { Dialog, DialogFooter, DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ARCHIVE_DIALOG, ARCHIVE_INTENT } from "~/lib/archive-intent";
import { cn } from "~/lib/utils";
import { SubmitButton } from "./form-parts";

/**
 * The archive confirmation of SPEC.md section 5, a URL dialog (`?dialog=archive`) that works without
 * JavaScript: the user retypes the exact name, then the form posts `intent=archive` and `confirmName`.
 * The browser checks the name when JavaScript is on; the service is the authority (its "Wrong Name"
 * comes back in `lastResult`, beside the field).
 */
export { ARCHIVE_DIALOG, ARCHIVE_INTENT };

/** The button that opens the dialog (a link to `?dialog=archive`). */
export function ArchiveTrigger({ children, className }: { children?: ReactNode; className?: string }) {
  const { t } = useTranslation();
  const dialog = useUrlDialog(ARCHIVE_DIALOG);
  return (
    <DialogTrigger to={dialog.openTo} variant="outline" className={cn("text-destructive hover:text-destructive", className)}>
      {children ?? t("archive.action")}
    </DialogTrigger>
  );
}

/** `details` says what else is archived (the cascade of SPEC.md section 4). */
export function ArchiveDialog({
  name,
  lastResult,
  details,
}: {
  name: string;
  lastResult?: SubmissionResult<string[]>;
  details?: ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useUrlDialog(ARCHIVE_DIALOG);
  return (
    <Dialog
      open={dialog.open}
      closeTo={dialog.closeTo}
      title={t("archive.title", { name })}
      description={t("archive.warning")}
      closeLabel={t("actions.close")}
      size="sm"
    >
      {details ? <p className="mb-4 text-sm">{details}</p> : null}
      <ArchiveForm name={name} closeTo={dialog.closeTo} lastResult={lastResult} />
    </Dialog>
  );
}

function ArchiveForm({ name, closeTo, lastResult }: { name: string; closeTo: string; lastResult?: SubmissionResult<string[]> }) {
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
