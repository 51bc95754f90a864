import { useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { Alert } from "~/components/ui/alert";
import { cn } from "~/lib/utils";

/**
 * The project's form pattern (STYLE.md "Forms"): conform validating with the same zod schema the
 * server action uses, on submit and then on every input, and the action's `submission.reply()` as
 * `lastResult` so server errors and kept values show without JavaScript too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useZodForm<T extends Record<string, any>>(
  schema: z.ZodType<unknown, T>,
  options: { id?: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: DefaultValue<T> } = {},
) {
  return useForm<T, unknown>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
}

/**
 * The action's reply for one of the page's forms (they are told apart by `intent`): `resultFor(intent)`
 * is that form's `lastResult`, undefined when the reply is another form's.
 */
export function useResultFor<I extends string = string>() {
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>();
  return (intent: I) => (actionData?.intent === intent ? actionData.result : undefined);
}

/**
 * Schemas and services carry i18n keys as messages; this turns them into text. Keys with a namespace
 * prefix ("auth:login.invalidCredentials") resolve as written; plain keys are looked up in `ns`, then
 * in "common".
 */
export function useErrorText(ns: string[] = []) {
  const namespaces = [...ns, "common"];
  const { t } = useTranslation(namespaces);
  return (keys?: string[] | null) => keys?.map((key) => t(key, { ns: namespaces }));
}

/** The form-level errors (e.g. "Could not save, please try again.."), above the fields. */
export function FormErrors({ id, errors, ns }: { id?: string; errors?: string[] | null; ns?: string[] }) {
  const text = useErrorText(ns);
  if (!errors?.length) return null;
  return (
    <Alert variant="destructive" id={id}>
      {text(errors)?.join(" ")}
    </Alert>
  );
}

/**
 * The errors (already text) of what is not one labelled control (a list, a group of checkboxes, a
 * row), where `<Field>` does not show them; `id` is what the controls' aria-describedby points at.
 */
export function ErrorText({ id, errors, role, className }: { id?: string; errors?: string[] | null; role?: "alert"; className?: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role={role} className={cn("text-sm font-medium text-destructive", className)}>
      {errors.join(" ")}
    </p>
  );
}
