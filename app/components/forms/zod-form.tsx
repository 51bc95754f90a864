import { useForm, type DefaultValue, type Submission, type SubmissionResult } from "@conform-to/react";
import { useActionData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { Alert } from "~/components/ui/alert";
import { cn } from "~/lib/utils";

/** A form's client-side check: conform's `onValidate` (a zod schema through `parseWithZod`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FormValidator = (context: { formData: FormData }) => Submission<any, string[]>;

const interactions = ["focusin", "pointerdown", "keydown"] as const;

function formOf(target: EventTarget | null): HTMLFormElement | null {
  if (!(target instanceof Element)) return null;
  const owner = (target as Partial<HTMLInputElement>).form;
  return owner instanceof HTMLFormElement ? owner : target.closest("form");
}

/**
 * The client-side validation of a form, loaded when it is first needed (decision 021): zod, conform's
 * zod adapter and the schema are a lazy chunk, imported when the user first focuses, clicks or types in
 * form `#formId`, or at once when `now` (an action's reply is shown: its errors get fixed next).
 * Until it has loaded the form posts unchecked and the server's validation (the authority) answers;
 * without JavaScript nothing changes. `load` must be stable (a module-level function or a memo).
 */
export function useLazyValidator<V = FormValidator>(formId: string, load: () => Promise<V>, now = false): V | undefined {
  const [loaded, setLoaded] = useState<{ formId: string; load: () => Promise<V>; validate: V }>();
  const ready = loaded && loaded.formId === formId && loaded.load === load;
  useEffect(() => {
    if (ready) return;
    let active = true;
    const stop = () => interactions.forEach((name) => document.removeEventListener(name, onInteraction, true));
    const start = () => {
      stop();
      load().then(
        (validate) => {
          if (active) setLoaded({ formId, load, validate });
        },
        () => {}, // e.g. offline or a new deployment: the server still validates
      );
    };
    function onInteraction(event: Event) {
      if (formOf(event.target)?.id === formId) start();
    }
    if (now) start();
    else interactions.forEach((name) => document.addEventListener(name, onInteraction, true));
    return () => {
      active = false;
      stop();
    };
  }, [formId, load, now, ready]);
  return ready ? loaded.validate : undefined;
}

/** Loads a form's validator; `T` (the form's fields) is carried for `useZodForm`'s types only. */
export type LazyValidator<T> = (() => Promise<FormValidator>) & { readonly fields?: T };

/** The validator of a zod schema loaded by `loadSchema` (with conform's zod adapter, in the same lazy chunk). */
export function zodValidator<T>(loadSchema: () => Promise<z.ZodType<unknown, T>>): LazyValidator<T> {
  return () =>
    Promise.all([loadSchema(), import("@conform-to/zod/v4")]).then(
      ([schema, { parseWithZod }]) =>
        ({ formData }) =>
          parseWithZod(formData, { schema }),
    );
}

/**
 * The project's form pattern (STYLE.md "Forms"): conform validating with the same zod schema the
 * server action uses, on submit and then on every input, and the action's `submission.reply()` as
 * `lastResult` so server errors and kept values show without JavaScript too. The schema arrives
 * lazily (`useLazyValidator`): pass a stable loader, e.g. a module-level
 * `zodValidator(() => import("~/modules/auth/schema").then((m) => m.LoginFormSchema))`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useZodForm<T extends Record<string, any>>(
  validator: LazyValidator<T>,
  options: { id: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: DefaultValue<T> },
) {
  const onValidate = useLazyValidator(options.id, validator, Boolean(options.lastResult));
  return useForm<T, unknown>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    onValidate,
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
export function FormErrors({ id, errors, ns, className }: { id?: string; errors?: string[] | null; ns?: string[]; className?: string }) {
  const text = useErrorText(ns);
  if (!errors?.length) return null;
  return (
    <Alert variant="destructive" className={className} id={id}>
      <span data-refusal="">{text(errors)?.join(" ")}</span>
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
    <p id={id} role={role} className={cn("text-sm font-medium text-destructive", className)} data-refusal="">
      {errors.join(" ")}
    </p>
  );
}
