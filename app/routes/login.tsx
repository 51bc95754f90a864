import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LanguageSwitch } from "~/components/shell/language-switch";
import { isDomainError } from "~/lib/errors";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { formAuthenticator } from "~/modules/auth/authenticator.server";
import { guard, homeFor } from "~/modules/auth/guard.server";
import { LoginFormSchema } from "~/modules/auth/schema";
import { commitSession, storeTokens } from "~/modules/auth/session.server";
import { formDataOf } from "~/http/form-action.server";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateLoginForm = zodValidator(() => import("~/modules/auth/schema").then((m) => m.LoginFormSchema));

export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  const { session } = context.auth;
  const authMessage = session.get("authMessage");
  const sessionEnded = authMessage === "sessionExpired" || authMessage === "accountDisabled" ? authMessage : null;
  return data({ sessionEnded }, { headers: sessionEnded ? { "Set-Cookie": await commitSession(session) } : undefined });
}

export async function action({ request, context }: ActionFunctionArgs) {
  await guard(request, context);
  const formData = await formDataOf(request.clone());
  const submission = parseWithZod(formData, { schema: LoginFormSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  try {
    const pair = await formAuthenticator(context.runtime.auth, context.clientAddress).authenticate("form", request);
    const { session } = context.auth;
    storeTokens(session, pair);
    const target = safeRedirectPath(session.get("redirectTo"), homeFor(pair.role));
    session.unset("redirectTo");
    return redirect(target, { headers: { "Set-Cookie": await commitSession(session) } });
  } catch (error) {
    if (isDomainError(error)) {
      return data(submission.reply({ formErrors: [error.messageKey], hideFields: ["password"] }), { status: 400 });
    }
    throw error;
  }
}

export default function Login() {
  const { t } = useTranslation(["auth", "common"]);
  const { sessionEnded } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useZodForm(validateLoginForm, { id: "login", lastResult });
  const translate = useErrorText(["auth"]);

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-muted p-4">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">
            {t("common:app.name")}
          </CardTitle>
          <p className="text-sm text-muted-foreground">{t("login.subtitle")}</p>
        </CardHeader>
        <CardContent>
          {sessionEnded ? (
            <Alert variant="destructive" className="mb-4">
              {t(sessionEnded === "accountDisabled" ? "login.disabled" : "sessionExpired")}
            </Alert>
          ) : null}
          <FormErrors id={form.errorId} errors={form.errors} ns={["auth"]} className="mb-4" />
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <Field label={t("login.email")} htmlFor={fields.email.id} errors={translate(fields.email.errors)}>
              <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="username" autoFocus />
            </Field>
            <Field label={t("login.password")} htmlFor={fields.password.id} errors={translate(fields.password.errors)}>
              <Input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
            </Field>
            <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
              {t("login.submit")}
            </Button>
          </Form>
          <div className="mt-4 flex flex-col gap-2 text-sm">
            <Link to="/password/reset" className="text-primary underline-offset-4 hover:underline">
              {t("login.forgotPassword")}
            </Link>
            <Link to="/signup" className="text-primary underline-offset-4 hover:underline">
              {t("login.signup")}
            </Link>
          </div>
        </CardContent>
      </Card>
      <LanguageSwitch />
    </main>
  );
}
