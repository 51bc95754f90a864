import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { NewPasswordFields } from "~/components/forms/password-fields";
import { FormErrors, useLazyValidator, zodValidator } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { supportedLngs } from "~/i18n";

export interface AccountDefaults {
  name?: string;
  surname?: string;
  email?: string;
  language?: string;
}
type AccountFormValues = AccountDefaults & { password?: string; confirmPassword?: string };

/** Step 1 of the sign-up: the administrator's account. Posts `intent=continue`. */
export function AccountStep({
  lastResult,
  defaultValue,
  passwordKept,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaultValue: AccountDefaults;
  /** The password was given before (the visitor came back): both fields may stay empty. */
  passwordKept: boolean;
}) {
  const { t } = useTranslation(["onboarding", "common"]);
  const navigation = useNavigation();
  const validator = useMemo(
    () => zodValidator(() => import("~/modules/onboarding/schema").then((m) => m.accountFormSchema({ passwordKept }))),
    [passwordKept],
  );
  const onValidate = useLazyValidator("signup-account", validator, Boolean(lastResult));
  const [form, fields] = useForm<AccountFormValues>({
    id: "signup-account",
    lastResult,
    defaultValue,
    onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const tr = (keys?: string[]) => keys?.map((key) => t(key));

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <FormErrors id={form.errorId} errors={form.errors} ns={["onboarding"]} />
      <div className="grid gap-4 *:content-start sm:grid-cols-2">
        <Field label={t("signup.name")} htmlFor={fields.name.id} errors={tr(fields.name.errors)} required>
          <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="given-name" />
        </Field>
        <Field label={t("signup.surname")} htmlFor={fields.surname.id} errors={tr(fields.surname.errors)} required>
          <Input {...getInputProps(fields.surname, { type: "text" })} autoComplete="family-name" />
        </Field>
      </div>
      <Field label={t("signup.email")} htmlFor={fields.email.id} errors={tr(fields.email.errors)} required>
        <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
      </Field>
      <div className="grid gap-4 *:content-start sm:grid-cols-2">
        <NewPasswordFields password={fields.password} repeat={fields.confirmPassword} errorText={tr} required={!passwordKept}
          labels={{ password: t("signup.password"), repeat: t("signup.confirmPassword") }} description={passwordKept ? t("signup.passwordKept") : t("signup.passwordHint")} />
      </div>
      <Field
        label={t("signup.language")}
        htmlFor={fields.language.id}
        errors={tr(fields.language.errors)}
        description={t("signup.languageHint")}
        required
      >
        <Select {...getSelectProps(fields.language)} aria-describedby={`${fields.language.id}-description`}>
          {supportedLngs.map((lng) => (
            <option key={lng} value={lng} lang={lng}>
              {t(`common:language.${lng}`)}
            </option>
          ))}
        </Select>
      </Field>
      <div className="mt-2 flex flex-col gap-4 sm:flex-row-reverse sm:items-center sm:justify-between">
        <Button type="submit" name="intent" value="continue" className="sm:min-w-32" disabled={navigation.state === "submitting"}>
          {t("signup.continue")}
        </Button>
        <p className="text-sm text-muted-foreground">
          {t("signup.haveAccount")}{" "}
          <Link to="/login" className="text-primary underline underline-offset-4 hover:decoration-2">
            {t("signup.login")}
          </Link>
        </p>
      </div>
    </Form>
  );
}
