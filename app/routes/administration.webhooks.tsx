import { parseWithZod } from "@conform-to/zod/v4";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { DeliveryStatus, SecretOnce, WEBHOOKS_LIST, WebhookForm, WebhookStatus } from "~/components/webhooks/webhook-form";
import { controlCharacterErrors, formFailed, serviceFailed } from "~/http/form-action.server";
import { ownHeaders, secretAnswer } from "~/http/answer-headers.server";
import { screenAction, screenLoader } from "~/http/screen.server";
import { useDates } from "~/lib/use-dates";
import { listWebhooks } from "~/modules/webhooks/queries.server";
import { webhookEventKey } from "~/modules/webhooks/events";
import { createWebhook } from "~/modules/webhooks/service.server";

/**
 * /administration/webhooks (decision 057): the entity's endpoints with their state and last delivery, and
 * the form that registers one. Administrators only (the verbs refuse anyone else: /forbidden). A new
 * endpoint's secret is answered by the post itself, shown this once, with a link to the endpoint.
 */
export const loader = screenLoader(async ({ ctx }) => ({ webhooks: await listWebhooks(ctx) }));

/** The secret's `no-store` reaches the page and its `.data` answer. */
export const headers = ownHeaders;

export const action = screenAction({
  intents: {
    create: async ({ formData, ctx }) => {
      const { WebhookSchema } = await import("~/modules/webhooks/schema");
      const submission = parseWithZod(formData, { schema: WebhookSchema });
      const control = controlCharacterErrors(formData);
      if (control) return formFailed("create", submission.reply({ fieldErrors: control }));
      if (submission.status !== "success") return formFailed("create", submission.reply());
      try {
        const { webhook, secret } = await createWebhook(ctx, submission.value);
        return secretAnswer({ intent: "created" as const, id: webhook.id, name: webhook.name, secret });
      } catch (error) {
        return serviceFailed("create", (errors) => submission.reply(errors), error);
      }
    },
  },
});

export default function AdministrationWebhooks() {
  const { t } = useTranslation("webhooks");
  const { webhooks } = useLoaderData<typeof loader>();
  const created = useActionData<typeof action>() as { intent?: string; id?: number; name?: string; secret?: string } | undefined;
  const resultFor = useResultFor();
  const dates = useDates();
  const justMade = created?.intent === "created" && created.secret ? created : null;
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <div className="grid gap-1">
        <BackLink to="/administration">{t("backToAdministration")}</BackLink>
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration-webhooks")}</h1>
        <p className="text-sm text-muted-foreground">{t("intro")}</p>
      </div>

      {justMade ? (
        <div className="grid gap-2">
          <SecretOnce secret={justMade.secret!} />
          <Link to={`${WEBHOOKS_LIST}/${justMade.id}`} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            {t("list.open", { name: justMade.name })}
          </Link>
        </div>
      ) : null}

      <section aria-labelledby="webhooks-list" className="grid gap-3">
        <h2 id="webhooks-list" className="text-lg font-semibold">
          {t("list.title")}
        </h2>
        {webhooks.length === 0 ? <p className="text-sm text-muted-foreground">{t("list.empty")}</p> : null}
        <ul className="grid gap-3">
          {webhooks.map((webhook) => (
            <li key={webhook.id}>
              <Card>
                <CardContent className="grid gap-2 pt-4 sm:pt-6">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <Link to={`${WEBHOOKS_LIST}/${webhook.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                      {webhook.name}
                    </Link>
                    <WebhookStatus enabled={webhook.enabled} disabledReason={webhook.disabledReason} />
                  </div>
                  <p className="break-all font-mono text-xs text-muted-foreground">{webhook.url}</p>
                  <p className="text-sm">{webhook.events.map((event) => t(webhookEventKey(event), { defaultValue: event })).join(", ")}</p>
                  <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                    {webhook.lastDelivery ? (
                      <>
                        <span>{t("list.lastDelivery", { at: dates.dateTime(webhook.lastDelivery.createdAt) })}</span>
                        <DeliveryStatus status={webhook.lastDelivery.status} />
                        {webhook.lastDelivery.lastStatusCode ? <span>HTTP {webhook.lastDelivery.lastStatusCode}</span> : null}
                      </>
                    ) : (
                      <span>{t("list.noDelivery")}</span>
                    )}
                  </p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t("add.title")}</CardTitle>
        </CardHeader>
        <CardContent>
          <WebhookForm key={justMade?.id ?? "new"} intent="create" submitLabel={t("add.submit")} cancelTo={WEBHOOKS_LIST} lastResult={resultFor("create")} />
        </CardContent>
      </Card>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
