import { getCollectionProps, getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxField, DefaultSubmit, FormActions, FormSection } from "~/components/forms/form-parts";
import { ErrorText, FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Badge } from "~/components/ui/badge";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { WEBHOOK_EVENTS, webhookEventKey } from "~/modules/webhooks/events";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateWebhook = zodValidator(() => import("~/modules/webhooks/schema").then((m) => m.WebhookSchema));

export const WEBHOOKS_LIST = "/administration/webhooks";

/** The endpoint form of /administration/webhooks (`create`) and /administration/webhooks/{id} (`update`). */
export function WebhookForm({
  webhook,
  intent,
  submitLabel,
  cancelTo,
  lastResult,
}: {
  webhook?: { name: string; url: string; events: string[] };
  intent: "create" | "update";
  submitLabel: string;
  cancelTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("webhooks");
  const text = useErrorText(["webhooks"]);
  const [form, fields] = useZodForm(validateWebhook, {
    id: `webhook-${intent}`,
    lastResult,
    defaultValue: { name: webhook?.name ?? "", url: webhook?.url ?? "", events: webhook?.events ?? [] },
  });
  const boxes = getCollectionProps(fields.events, { type: "checkbox", options: [...WEBHOOK_EVENTS] });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["webhooks"]} />
      <DefaultSubmit />
      <Field label={t("form.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} required>
        <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
      </Field>
      <Field label={t("form.url")} htmlFor={fields.url.id} errors={text(fields.url.errors)} description={t("form.urlHint")} required>
        <Input {...getInputProps(fields.url, { type: "url" })} autoComplete="off" inputMode="url" placeholder="https://" />
      </Field>
      <FormSection title={t("form.events")} description={t("form.eventsHint")}>
        <div className="grid gap-3 sm:grid-cols-2">
          {boxes.map(({ key, type: _type, ...props }, index) => (
            <CheckboxField key={key} {...props} label={t(webhookEventKey(WEBHOOK_EVENTS[index]))} />
          ))}
        </div>
        <ErrorText id={fields.events.errorId} errors={text(fields.events.errors)} />
      </FormSection>
      <FormActions intent={intent} cancelTo={cancelTo} submitLabel={submitLabel} />
    </Form>
  );
}

/** An endpoint's state: enabled, disabled by someone, or disabled after failed deliveries. */
export function WebhookStatus({ enabled, disabledReason }: { enabled: boolean; disabledReason: string | null }) {
  const { t } = useTranslation("webhooks");
  if (enabled) return <Badge variant="success">{t("status.enabled")}</Badge>;
  return <Badge variant={disabledReason === "failures" ? "destructive" : "secondary"}>{t(disabledReason === "failures" ? "status.disabledFailures" : "status.disabled")}</Badge>;
}

/** A delivery's state. */
export function DeliveryStatus({ status }: { status: string }) {
  const { t } = useTranslation("webhooks");
  return <Badge variant={status === "succeeded" ? "success" : status === "failed" ? "destructive" : "warning"}>{t(`deliveryStatus.${status}`)}</Badge>;
}

/** The secret, shown once after it was made or rotated. */
export function SecretOnce({ secret }: { secret: string }) {
  const { t } = useTranslation("webhooks");
  return (
    <div role="status" className="grid gap-2 rounded-md border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950 dark:text-amber-50">
      <p className="font-semibold">{t("secret.title")}</p>
      <p className="text-sm">{t("secret.once")}</p>
      <code data-testid="webhook-secret" className="select-all break-all rounded bg-background px-2 py-1 font-mono text-sm text-foreground">
        {secret}
      </code>
    </div>
  );
}
