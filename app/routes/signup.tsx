import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AccountStep } from "~/components/onboarding/account-step";
import { EntityStep } from "~/components/onboarding/entity-step";
import { PublicPage } from "~/components/onboarding/public-page";
import { SignupSteps } from "~/components/onboarding/signup-steps";
import { Alert } from "~/components/ui/alert";
import { detectLocale } from "~/i18n.server";
import { isDomainError, type DomainError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { guard } from "~/modules/auth/guard.server";
import { captcha } from "~/modules/onboarding/captcha.server";
import { clipEntity, readDraft, saveDraft, type SignupDraft } from "~/modules/onboarding/draft.server";
import { AccountSchema, EntitySchema } from "~/modules/onboarding/schema";
import { checkAccount, type OnboardingDeps, signUp } from "~/modules/onboarding/service.server";
import { onboardingDeps } from "~/http/deps.server";
import { visitorAction } from "~/http/screen.server";

/**
 * /signup: register a new entity and its administrator in two steps (SPEC.md section 2). Each step
 * is a server round trip, so it works without JavaScript: Continue validates step 1 and keeps it in
 * the encrypted draft cookie (the password never goes back to the page), Back keeps step 2 as typed,
 * Finish checks step 2 and the captcha and calls `signUp`.
 */
type Step = "account" | "entity";
const PASSWORD_FIELDS = ["password", "confirmPassword"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  const url = new URL(request.url);
  const draft = await readDraft(request);
  const locale = await detectLocale(request);
  const step: Step = url.searchParams.get("step") === "entity" && draft.account ? "entity" : "account";
  const { password: _password, ...account } = draft.account ?? { password: "", language: locale };
  const question = step === "entity" ? captcha().question() : null;
  return data(
    {
      step,
      account,
      passwordKept: Boolean(draft.account),
      entity: draft.entity ?? {},
      question,
      expired: Boolean(draft.expired),
    },
    // The "expired" notice shows once.
    { headers: draft.expired ? { "Set-Cookie": await saveDraft({ ...draft, expired: undefined }) } : undefined },
  );
}

export const action = visitorAction({
  // A post without an intent is step 1's (its Continue button is the form's default).
  fallback: "continue",
  intents: {
    continue: async ({ request, context, formData }) => continueToEntity(formData, await readDraft(request), onboardingDeps(context)),
    back: async ({ request, formData }) => redirect("/signup", { headers: { "Set-Cookie": await saveDraft({ ...(await readDraft(request)), entity: clipEntity(formData) }) } }),
    finish: async ({ request, context, formData }) => finish(formData, await readDraft(request), onboardingDeps(context)),
  },
});

async function continueToEntity(formData: FormData, draft: SignupDraft, deps: OnboardingDeps) {
  // Back from step 2 with both password fields left empty: keep the password given before.
  if (draft.account && !formData.get("password") && !formData.get("confirmPassword")) {
    formData.set("password", draft.account.password);
    formData.set("confirmPassword", draft.account.password);
  }
  const submission = parseWithZod(formData, { schema: AccountSchema });
  if (submission.status !== "success") {
    return data({ step: "account" as Step, result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 });
  }
  try {
    await checkAccount(deps, submission.value);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data({ step: "account" as Step, result: submission.reply({ ...errorsOf(error, ""), hideFields: PASSWORD_FIELDS }) }, { status: 400 });
  }
  const { name, surname, email, language, password } = submission.value;
  const next: SignupDraft = { ...draft, account: { name, surname, email, language, password }, expired: undefined, sentTo: undefined };
  return redirect("/signup?step=entity", { headers: { "Set-Cookie": await saveDraft(next) } });
}

async function finish(formData: FormData, draft: SignupDraft, deps: OnboardingDeps) {
  const entity = clipEntity(formData);
  if (!draft.account) {
    // The draft expired (an hour) or cookies are off: start again, keeping what this page had.
    return redirect("/signup", { headers: { "Set-Cookie": await saveDraft({ entity, expired: true }) } });
  }
  const submission = parseWithZod(formData, { schema: EntitySchema });
  if (submission.status !== "success") {
    return data({ step: "entity" as Step, result: submission.reply() }, { status: 400 });
  }
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" && value ? value : undefined;
  };
  try {
    const { email } = await signUp(deps, {
      account: { ...draft.account, confirmPassword: draft.account.password },
      entity: submission.value,
      captcha: { altcha: text("altcha"), questionToken: text("questionToken"), answer: text("answer") },
    });
    return redirect("/signup/success", { headers: { "Set-Cookie": await saveDraft({ sentTo: email }) } });
  } catch (error) {
    if (!isDomainError(error)) {
      logger().error({ err: error }, "sign-up failed");
      return data({ step: "entity" as Step, result: submission.reply({ formErrors: ["onboarding:errors.generic"] }) }, { status: 500 });
    }
    const accountErrors = error.code === "EMAIL_IN_USE" ? { fieldErrors: { email: [error.messageKey] } } : errorsOf(error, "account.");
    if (Object.keys(accountErrors.fieldErrors).length) {
      // Step 1 is what is wrong (the address was taken meanwhile): show it again, keep step 2.
      const { password: _password, ...values } = draft.account;
      const result: SubmissionResult<string[]> = { status: "error", initialValue: values, error: accountErrors.fieldErrors };
      return data({ step: "account" as Step, result }, { status: 400, headers: { "Set-Cookie": await saveDraft({ ...draft, entity }) } });
    }
    return data({ step: "entity" as Step, result: submission.reply(errorsOf(error, "entity.")) }, { status: error.status >= 500 ? error.status : 400 });
  }
}

/** A domain error as conform errors: the field errors under `prefix` (stripped), else its message above the form. */
function errorsOf(error: DomainError, prefix: string): { formErrors: string[]; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    if (key.startsWith(prefix)) fieldErrors[key.slice(prefix.length)] = messages;
  }
  return { formErrors: Object.keys(fieldErrors).length ? [] : [error.messageKey], fieldErrors };
}

export default function Signup() {
  const { t } = useTranslation("onboarding");
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const step: Step = actionData?.step ?? loaderData.step;
  const result = actionData?.step === step ? (actionData.result as SubmissionResult<string[]>) : undefined;

  return (
    <PublicPage title={t("signup.title")} subtitle={t("signup.subtitle")} wide>
      <SignupSteps current={step} />
      {loaderData.expired ? (
        <Alert variant="destructive" className="mb-4">
          {t("signup.draftExpired")}
        </Alert>
      ) : null}
      {step === "entity" && loaderData.question ? (
        <EntityStep key="entity" lastResult={result} defaultValue={loaderData.entity} question={loaderData.question} />
      ) : (
        <AccountStep key="account" lastResult={result} defaultValue={loaderData.account} passwordKept={loaderData.passwordKept} />
      )}
    </PublicPage>
  );
}
