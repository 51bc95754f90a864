import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NewPasswordFields } from "~/components/forms/password-fields";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { PublicPage } from "~/components/onboarding/public-page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { isDomainError } from "~/lib/errors";
import { guard } from "~/modules/auth/guard.server";
import { isResetTokenUsable, requestPasswordReset, resetPassword } from "~/modules/auth/password-reset.server";
import { passwordResetDeps } from "~/http/deps.server";
import { RequestPasswordResetSchema, ResetPasswordFormSchema } from "~/modules/onboarding/schema";
import { visitorAction, type VisitorIntentArgs } from "~/http/screen.server";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateResetPasswordForm = zodValidator(() => import("~/modules/onboarding/schema").then((m) => m.ResetPasswordFormSchema));

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateRequestPasswordReset = zodValidator(() => import("~/modules/onboarding/schema").then((m) => m.RequestPasswordResetSchema));

/**
 * /password/reset (SPEC.md section 2): step 1 asks for the address and always answers "check your
 * email"; the mailed link (?token=…) opens step 2, a new password and its confirmation; then
 * "Password modified" and the way to the login page. An invitation link (`&invitation=1`)
 * opens the same form worded for choosing a first password; setting it activates the account.
 */
type View = "request" | "sent" | "reset" | "invalid" | "done";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  const url = new URL(request.url);
  const invitation = url.searchParams.get("invitation") === "1";
  if (url.searchParams.has("sent")) return data({ view: "sent" as View, token: null, invitation });
  if (url.searchParams.has("done")) return data({ view: "done" as View, token: null, invitation });
  const token = url.searchParams.get("token");
  if (token !== null) {
    const usable = await isResetTokenUsable(passwordResetDeps(context), token);
    return usable ? data({ view: "reset" as View, token, invitation }) : data({ view: "invalid" as View, token: null, invitation }, { status: 400 });
  }
  return data({ view: "request" as View, token: null, invitation });
}

export const action = visitorAction({
  // A post without an intent is step 1's: the address to send the link to.
  fallback: "request",
  intents: { request: requestLink, reset: setPassword },
});

/** Step 1: the address; the answer is always "check your email". */
async function requestLink({ context, formData }: VisitorIntentArgs) {
  const submission = parseWithZod(formData, { schema: RequestPasswordResetSchema });
  if (submission.status !== "success") {
    return data({ intent: "request" as const, result: submission.reply() }, { status: 400 });
  }
  await requestPasswordReset(passwordResetDeps(context), submission.value, context.clientAddress);
  return redirect("/password/reset?sent");
}

/** Step 2: the new password, for the mailed link's token. */
async function setPassword({ request, context, formData }: VisitorIntentArgs) {
  const submission = parseWithZod(formData, { schema: ResetPasswordFormSchema });
  const hideFields = ["newPassword", "confirmPassword"];
  if (submission.status !== "success") {
    return data({ intent: "reset" as const, result: submission.reply({ hideFields }) }, { status: 400 });
  }
  try {
    await resetPassword(passwordResetDeps(context), { token: submission.value.token, newPassword: submission.value.newPassword });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const invalid = error.code === "INVALID_TOKEN";
    return data(
      {
        intent: "reset" as const,
        invalid,
        result: submission.reply({ formErrors: [error.messageKey], fieldErrors: invalid ? {} : (error.fieldErrors ?? {}), hideFields }),
      },
      { status: 400 },
    );
  }
  return redirect(new URL(request.url).searchParams.get("invitation") === "1" ? "/password/reset?done&invitation=1" : "/password/reset?done");
}

export default function PasswordReset() {
  const { t } = useTranslation("onboarding");
  const { view, token, invitation } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  if (view === "sent") {
    return (
      <PublicPage title={t("reset.sentTitle")}>
        <div className="grid gap-4">
          <Alert variant="success">{t("reset.sentText")}</Alert>
          <BackToLogin />
        </div>
      </PublicPage>
    );
  }
  if (view === "done") {
    return (
      <PublicPage title={t("reset.title")}>
        <div className="grid gap-4">
          <Alert variant="success">
            <p className="font-semibold">{invitation ? t("reset.invitationDone") : t("reset.passwordModified")}</p>
            <p>{invitation ? t("reset.invitationDoneText") : t("reset.passwordModifiedText")}</p>
          </Alert>
          <Link to="/login" className={buttonVariants({ className: "w-full" })}>
            {t("reset.login")}
          </Link>
        </div>
      </PublicPage>
    );
  }
  if (view === "invalid" || (actionData && "invalid" in actionData && actionData.invalid)) {
    return (
      <PublicPage title={t("reset.title")}>
        <div className="grid gap-4">
          <Alert variant="destructive">
            <p className="font-semibold">{t("reset.invalidToken")}</p>
            <p>{t("reset.invalidTokenText")}</p>
          </Alert>
          <Link to="/password/reset" className={buttonVariants({ className: "w-full" })}>
            {t("reset.requestNew")}
          </Link>
          <BackToLogin />
        </div>
      </PublicPage>
    );
  }
  if (view === "reset" && token) {
    return (
      <PublicPage title={invitation ? t("reset.invitationTitle") : t("reset.newPasswordTitle")} subtitle={invitation ? t("reset.invitationText") : undefined}>
        <NewPasswordForm token={token} invitation={invitation} lastResult={actionData?.intent === "reset" ? (actionData.result as SubmissionResult<string[]>) : undefined} />
      </PublicPage>
    );
  }
  return (
    <PublicPage title={t("reset.title")} subtitle={t("reset.requestText")}>
      <RequestForm lastResult={actionData?.intent === "request" ? (actionData.result as SubmissionResult<string[]>) : undefined} />
    </PublicPage>
  );
}

function BackToLogin() {
  const { t } = useTranslation("onboarding");
  return (
    <Link to="/login" className="text-center text-sm text-primary underline-offset-4 hover:underline">
      {t("reset.backToLogin")}
    </Link>
  );
}

function RequestForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("onboarding");
  const navigation = useNavigation();
  const [form, fields] = useZodForm(validateRequestPasswordReset, { id: "reset-request", lastResult });
  const tr = useErrorText(["onboarding"]);
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <FormErrors id={form.errorId} errors={form.errors} ns={["onboarding"]} />
      <Field label={t("reset.email")} htmlFor={fields.email.id} errors={tr(fields.email.errors)} required>
        <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" autoFocus />
      </Field>
      <Button type="submit" name="intent" value="request" className="w-full" disabled={navigation.state === "submitting"}>
        {t("reset.send")}
      </Button>
      <BackToLogin />
    </Form>
  );
}

function NewPasswordForm({ token, invitation, lastResult }: { token: string; invitation: boolean; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("onboarding");
  const navigation = useNavigation();
  const [form, fields] = useZodForm(validateResetPasswordForm, { id: "reset-password", lastResult });
  const tr = useErrorText(["onboarding"]);
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <FormErrors id={form.errorId} errors={form.errors} ns={["onboarding"]} />
      <input type="hidden" name="token" value={token} />
      <NewPasswordFields password={fields.newPassword} repeat={fields.confirmPassword} errorText={tr} autoFocus
        labels={{ password: t("reset.newPassword"), repeat: t("reset.confirmPassword") }} description={t("signup.passwordHint")} />
      <Button type="submit" name="intent" value="reset" className="w-full" disabled={navigation.state === "submitting"}>
        {invitation ? t("reset.invitationSave") : t("reset.save")}
      </Button>
    </Form>
  );
}
