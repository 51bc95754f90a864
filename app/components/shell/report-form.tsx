import type { z } from "zod";
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button, buttonVariants } from "~/components/ui/button";
import { DialogFooter } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/utils";
import { REPORT_ATTACHMENT_ACCEPT, REPORT_MESSAGE_MAX, REPORT_TYPES } from "~/modules/reports/constants";
import type { ReportFormSchema } from "~/modules/reports/schema";
import { Icon } from "./icons";
import { FormErrors, useLazyValidator, zodValidator } from "~/components/forms/zod-form";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateReport = zodValidator(() => import("~/modules/reports/schema").then((m) => m.ReportFormSchema));

export type ReportActionData = SubmissionResult<string[]> | undefined;

export interface ReportFormProps {
  /**
   * "fetcher" (inside the dialog: with JavaScript the errors come back into the dialog; without it
   * the post lands on the /report-issue page) or "page" (the /report-issue page itself).
   */
  mode: "fetcher" | "page";
  /** The action's reply on the /report-issue page. */
  lastResult?: ReportActionData;
  /** Where the action goes back to after sending (the page the dialog was opened on). */
  redirectTo: string;
  /** Where Cancel goes. */
  cancelTo: string;
}

/**
 * The "report a bug or suggestion" form: type, message (required), optional attachment. A plain
 * multipart post to /report-issue; conform validates the same schema in the browser when it can.
 */
export function ReportForm({ mode, lastResult, redirectTo, cancelTo }: ReportFormProps) {
  const { t } = useTranslation("shell");
  const { t: tCommon } = useTranslation();
  const fetcher = useFetcher<ReportActionData>({ key: "report-issue" });
  const navigation = useNavigation();
  const result = mode === "fetcher" ? fetcher.data : lastResult;
  const submitting =
    mode === "fetcher"
      ? fetcher.state === "submitting"
      : navigation.state === "submitting" && Boolean(navigation.formAction?.startsWith("/report-issue"));

  const onValidate = useLazyValidator("report-form", validateReport, Boolean(result));

  const [form, fields] = useForm<z.input<typeof ReportFormSchema>, z.output<typeof ReportFormSchema>>({
    id: "report-form",
    lastResult: result,
    defaultValue: { type: "bug" },
    onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const translate = (keys?: string[]) => keys?.map((key) => tCommon(key));
  const FormElement = mode === "fetcher" ? fetcher.Form : Form;
  const typeErrors = translate(fields.type.errors);

  return (
    <FormElement
      method="post"
      action={`/report-issue?${new URLSearchParams({ redirectTo })}`}
      encType="multipart/form-data" {...getFormProps(form)} className="grid gap-5">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormErrors id={form.errorId} errors={form.errors} />

      <fieldset className="grid gap-2" aria-describedby={typeErrors?.length ? `${fields.type.id}-error` : undefined}>
        <legend className="mb-2 text-sm font-medium leading-none">{t("report.type")}</legend>
        <div className="grid grid-cols-2 gap-2 sm:gap-3">
          {REPORT_TYPES.map((value) => {
            const { id: _id, key: _key, ...radio } = getInputProps(fields.type, { type: "radio", value });
            const id = `${fields.type.id}-${value}`;
            return (
              <label
                key={value}
                htmlFor={id}
                className={cn(
                  "relative flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors hover:bg-muted/60",
                  "has-checked:border-primary has-checked:bg-primary/5 has-checked:ring-1 has-checked:ring-primary",
                  "has-focus-visible:ring-2 has-focus-visible:ring-ring",
                )}
              >
                <input {...radio} id={id} className="sr-only" />
                <Icon name={value === "bug" ? "bug" : "lightbulb"} className="mt-0.5 size-5 text-primary" />
                <span className="grid gap-0.5">
                  <span className="text-sm font-semibold">{t(`report.types.${value}`)}</span>
                  <span className="text-xs text-muted-foreground">{t(`report.types.${value}Hint`)}</span>
                </span>
              </label>
            );
          })}
        </div>
        {typeErrors?.length ? (
          <p id={`${fields.type.id}-error`} className="text-sm font-medium text-destructive">
            {typeErrors.join(" ")}
          </p>
        ) : null}
      </fieldset>

      <Field label={t("report.message")} htmlFor={fields.message.id} errors={translate(fields.message.errors)} required>
        <Textarea
          {...getTextareaProps(fields.message)}
          key={fields.message.key}
          rows={5}
          maxLength={REPORT_MESSAGE_MAX}
          placeholder={t("report.messagePlaceholder")}
          required
          data-autofocus
        />
      </Field>

      <Field
        label={
          <>
            {t("report.attachment")} <span className="font-normal text-muted-foreground">({t("report.optional")})</span>
          </>
        }
        htmlFor={fields.attachment.id}
        errors={translate(fields.attachment.errors)}
        description={t("report.attachmentHint")}
      >
        <input
          {...getInputProps(fields.attachment, { type: "file" })}
          key={fields.attachment.key}
          accept={REPORT_ATTACHMENT_ACCEPT}
          className={cn(
            "block w-full cursor-pointer rounded-md border border-input bg-background text-sm text-muted-foreground",
            "file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-input file:bg-muted file:px-3 file:py-2.5 file:text-sm file:font-medium file:text-foreground hover:file:bg-secondary",
            "focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2",
            "aria-invalid:border-destructive",
          )}
        />
      </Field>

      <DialogFooter className="mt-1">
        <Link to={cancelTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {mode === "page" ? t("report.back") : t("report.cancel")}
        </Link>
        <Button type="submit" disabled={submitting}>
          <Icon name="report" />
          {submitting ? t("report.sending") : t("report.send")}
        </Button>
      </DialogFooter>
    </FormElement>
  );
}
