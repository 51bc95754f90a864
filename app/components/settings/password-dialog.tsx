import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useZodForm, zodValidator } from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import { Dialog, DialogFooter } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NewPasswordFields } from "~/components/forms/password-fields";
import { FormErrors } from "~/components/forms/zod-form";
import { SubmitButton, useErrorText } from "./form-parts";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validatePasswordForm = zodValidator(() => import("~/modules/users/schema").then((m) => m.PasswordFormSchema));

/**
 * The "update password" dialog, open at `?dialog=password` (works without JavaScript): old, new and
 * repeat. On success the action redirects to the page without the dialog.
 */
export function PasswordDialog({
  open,
  closeTo,
  lastResult,
}: {
  open: boolean;
  closeTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("settings");
  return (
    <Dialog open={open} closeTo={closeTo} title={t("password.title")} description={t("password.description")} closeLabel={t("password.close")} size="sm">
      <PasswordForm closeTo={closeTo} lastResult={lastResult} />
    </Dialog>
  );
}

function PasswordForm({ closeTo, lastResult }: { closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("settings");
  const text = useErrorText();
  const [form, fields] = useZodForm(validatePasswordForm, { id: "password", lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="password" />
      <FormErrors id={form.errorId} errors={form.errors} ns={["settings"]} />
      <Field label={t("password.old")} htmlFor={fields.oldPassword.id} errors={text(fields.oldPassword.errors)} required>
        <Input {...getInputProps(fields.oldPassword, { type: "password" })} autoComplete="current-password" data-autofocus />
      </Field>
      <NewPasswordFields password={fields.newPassword} repeat={fields.repeatPassword} errorText={text}
        labels={{ password: t("password.new"), repeat: t("password.repeat") }} description={t("password.policyHint")} />
      <DialogFooter className="mt-2">
        <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {t("password.cancel")}
        </Link>
        <SubmitButton intent="password">{t("password.submit")}</SubmitButton>
      </DialogFooter>
    </Form>
  );
}
